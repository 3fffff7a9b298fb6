import { sha256 } from "@noble/hashes/sha2.js";
import { encodeBech32Address } from "../codec/bech32.js";

export interface DevGenesisInput {
  chainId: string;
  prefix: string;
  denom: string;
  addresses: string[];
  genesisTime: Date;
}

/** Module account address: the first 20 bytes of SHA-256(module name), as the real auth module derives it. */
export function moduleAddress(prefix: string, name: string): string {
  return encodeBech32Address(prefix, sha256(new TextEncoder().encode(name)).subarray(0, 20));
}

const ACCOUNT_BALANCE = "1000000000000"; // 1,000,000 main units of a 10^6 base denom
const EXTRA_DENOMS = ["ubronze", "ugold", "usilver"]; // so the first account has a multi-coin balance

/**
 * A development genesis in the real format: app_state maps each module to its
 * GenesisState in proto3 JSON, exactly as a genesis exported from a real chain.
 */
export function devGenesis(input: DevGenesisInput): Record<string, unknown> {
  const { prefix, denom, addresses } = input;
  const accounts: unknown[] = addresses.map((address, i) => ({
    "@type": "/core.auth.v1beta1.BaseAccount",
    address,
    pub_key: null,
    account_number: String(i),
    sequence: "0",
  }));
  accounts.push({
    "@type": "/core.auth.v1beta1.ModuleAccount",
    base_account: { address: moduleAddress(prefix, "fee_collector"), pub_key: null, account_number: String(addresses.length), sequence: "0" },
    name: "fee_collector",
    permissions: [],
  });
  const balances = addresses.map((address, i) => ({
    address,
    coins: [...(i === 0 ? EXTRA_DENOMS.map((d) => ({ denom: d, amount: "1000000" })) : []), { denom, amount: ACCOUNT_BALANCE }].sort((a, b) =>
      a.denom.localeCompare(b.denom),
    ),
  }));
  const display = denom.replace(/^u/, "");
  return {
    genesis_time: input.genesisTime.toISOString(),
    chain_id: input.chainId,
    initial_height: "1",
    consensus_params: {
      block: { max_bytes: "22020096", max_gas: "-1", time_iota_ms: "1000" },
      evidence: { max_age_num_blocks: "100000", max_age_duration: "172800000000000", max_bytes: "1048576" },
      validator: { pub_key_types: ["ed25519"] },
      version: {},
    },
    app_hash: "",
    app_state: {
      auth: {
        params: {
          max_memo_characters: "256",
          tx_sig_limit: "7",
          tx_size_cost_per_byte: "10",
          sig_verify_cost_ed25519: "590",
          sig_verify_cost_secp256k1: "1000",
        },
        accounts,
      },
      bank: {
        params: { send_enabled: [], default_send_enabled: true },
        balances,
        supply: [],
        denom_metadata: [
          {
            description: `The native token of ${input.chainId}`,
            denom_units: [
              { denom, exponent: 0, aliases: [`micro${display}`] },
              { denom: `m${display}`, exponent: 3, aliases: [`milli${display}`] },
              { denom: display, exponent: 6, aliases: [] },
            ],
            base: denom,
            display,
          },
        ],
      },
    },
  };
}
