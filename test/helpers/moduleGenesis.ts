import { bech32 } from "bech32";
import { Codec } from "../../src/codec/codec.js";
import { devGenesis } from "../../src/commands/devGenesis.js";
import type { NodeModule } from "../../src/node/modules/nodeModule.js";

/** Genesis JSON that a test case edits before validating it. */
export type GenesisJson = Record<string, any>;

export const TEST_CHAIN = { chainId: "devnet-1", bech32Prefix: "hub" };
export const genesisCodec = new Codec();

/** A fixed `hub` address: 20 bytes of `fill`. */
export const fixedAddress = (fill: number) => bech32.encode("hub", bech32.toWords(new Uint8Array(20).fill(fill)));

/** `n` dev accounts with fixed addresses (bytes 1, 2, 3, …) and blank public keys. */
export const fixedAccounts = (n: number) => Array.from({ length: n }, (_, i) => ({ index: i, address: fixedAddress(i + 1), publicKey: new Uint8Array(33) }));

/** The app_state of the development genesis on a fixed chain, accounts and validator key. */
export function devAppState(options: { accounts: number; consensusKeyFill?: number }): GenesisJson {
  const doc = devGenesis({
    chainId: TEST_CHAIN.chainId,
    prefix: "hub",
    denom: "uhub",
    accounts: fixedAccounts(options.accounts),
    consensusPublicKey: new Uint8Array(32).fill(options.consensusKeyFill ?? 0),
    genesisTime: new Date("2024-01-01T00:00:00Z"),
  });
  return doc.app_state as GenesisJson;
}

/** Parses a module's genesis JSON as the node does and validates it. */
export function validateModuleGenesis(module: NodeModule, json: unknown): void {
  module.validateGenesis(genesisCodec.parser.parse(genesisCodec.type(module.genesisType), json), { chain: TEST_CHAIN, codec: genesisCodec });
}
