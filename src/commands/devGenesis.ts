import { moduleAddress } from "../codec/addresses.js";
import { NODE_MODULES } from "../node/modules/index.js";
import type { DevAccount, DevGenesisContext, GenesisCoin } from "../node/modules/devGenesisContext.js";
import { profileTypeUrl } from "../codec/typeRegistry.js";

export interface DevGenesisInput {
  chainId: string;
  prefix: string;
  denom: string;
  accounts: DevAccount[];
  consensusPublicKey: Uint8Array;
  genesisTime: Date;
}

class DevGenesisBuilder implements DevGenesisContext {
  readonly moduleAccounts: Array<{ name: string; address: string; permissions: string[] }> = [];
  readonly balances = new Map<string, Map<string, bigint>>();
  readonly otherAccounts: string[] = [];
  readonly chainId: string;
  readonly prefix: string;
  readonly denom: string;
  readonly genesisTime: Date;
  readonly accounts: DevAccount[];
  readonly consensusPublicKey: Uint8Array;

  constructor(input: DevGenesisInput) {
    ({
      chainId: this.chainId,
      prefix: this.prefix,
      denom: this.denom,
      genesisTime: this.genesisTime,
      accounts: this.accounts,
      consensusPublicKey: this.consensusPublicKey,
    } = input);
  }

  moduleAccount(name: string, permissions: string[]): string {
    const address = moduleAddress(this.prefix, name);
    if (!this.moduleAccounts.some((m) => m.name === name)) this.moduleAccounts.push({ name, address, permissions });
    return address;
  }

  account(address: string): void {
    if (!this.otherAccounts.includes(address)) this.otherAccounts.push(address);
  }

  fund(address: string, coins: GenesisCoin[]): void {
    const balance = this.balances.get(address) ?? new Map<string, bigint>();
    for (const coin of coins) balance.set(coin.denom, (balance.get(coin.denom) ?? 0n) + BigInt(coin.amount));
    this.balances.set(address, balance);
  }
}

/** Built last: they collect the module accounts and balances the other modules registered. */
const BUILT_LAST = ["bank", "auth"];

/**
 * A development genesis in the real format: app_state maps each module to its
 * GenesisState in proto3 JSON, exactly as a genesis exported from a real chain.
 */
export function devGenesis(input: DevGenesisInput): Record<string, unknown> {
  const builder = new DevGenesisBuilder(input);
  const appState: Record<string, unknown> = {};
  const ordered = [...NODE_MODULES.filter((m) => !BUILT_LAST.includes(m.name)), ...BUILT_LAST.map((name) => NODE_MODULES.find((m) => m.name === name)!)];
  for (const module of ordered) if (module.devGenesis) appState[module.name] = module.devGenesis(builder);
  return {
    genesis_time: input.genesisTime.toISOString(),
    chain_id: input.chainId,
    initial_height: "1",
    consensus_params: {
      // a block gas limit, so that a transaction asking for more gas than a block holds is refused
      block: { max_bytes: "22020096", max_gas: "100000000", time_iota_ms: "1000" },
      evidence: { max_age_num_blocks: "100000", max_age_duration: "172800000000000", max_bytes: "1048576" },
      validator: { pub_key_types: ["ed25519"] },
      version: {},
    },
    app_hash: "",
    app_state: Object.fromEntries(NODE_MODULES.filter((m) => m.name in appState).map((m) => [m.name, profileTypeUrls(appState[m.name])])),
  };
}

/** The modules write their Anys' "@type" in the neutral names; the genesis holds the naming profile's. */
function profileTypeUrls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(profileTypeUrls);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, key === "@type" && typeof v === "string" ? profileTypeUrl(v) : profileTypeUrls(v)]));
}
