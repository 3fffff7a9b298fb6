import path from "node:path";
import { initHome } from "../../src/commands/init.js";
import { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { Codec } from "../../src/codec/codec.js";
import { tempDir } from "./tempDir.js";

/** A fixed mnemonic, so that test accounts are the same on every run. */
export const TEST_MNEMONIC =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon art";

const codec = new Codec();

/** An embedded node in this process on a fresh development chain (for tests of the node itself). */
export async function openDevNode(
  options: { accounts?: number; minimumGasPrices?: string; keepRecent?: number } = {},
): Promise<{ node: EmbeddedNode; home: string; addresses: string[] }> {
  const home = path.join(tempDir("chain-rest-node-"), "home");
  const dev = initHome({ home, chainId: "devnet-1", accounts: options.accounts ?? 5, denom: "uhub", mnemonic: TEST_MNEMONIC });
  const node = await EmbeddedNode.open({
    home,
    bech32Prefix: "hub",
    keepRecent: options.keepRecent ?? 100,
    moniker: "test",
    minimumGasPrices: options.minimumGasPrices,
    codec,
  });
  return { node, home, addresses: dev.accounts.map((a) => a.address) };
}
