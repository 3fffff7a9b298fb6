/** Example path and query values for every gateway GET route, filled from a chain's state (the sweeps of the route table). */
import fs from "node:fs";
import path from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { bech32 } from "bech32";
import { readDevAccounts } from "../../src/commands/home.js";
import { bech32Prefixes } from "../../src/codec/addresses.js";
import { Codec } from "../../src/codec/codec.js";
import { decodeBech32Address, encodeBech32Address } from "../../src/codec/bech32.js";

export type AppState = Record<string, any>;

const codec = new Codec();

/** Every value of `key` anywhere under `value`, in document order. */
function valuesOf(value: unknown, key: string): unknown[] {
  if (Array.isArray(value)) return value.flatMap((v) => valuesOf(v, key));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => [...(k === key && (typeof v === "string" || typeof v === "number") ? [v] : []), ...valuesOf(v, key)]);
}

/** x/evidence keys evidence by the SHA-256 of its proto bytes; the path takes the hash in base64. */
function evidenceHash(evidence: AppState | undefined): string | undefined {
  if (!evidence) return undefined;
  const { "@type": typeUrl, ...fields } = evidence;
  const type = codec.type(String(typeUrl).slice(1));
  return Buffer.from(sha256(type.encode(codec.parser.parse(type, fields)).finish())).toString("base64");
}

/** irismod's record id: SHA-256 of the record's proto bytes and the 4-byte intra-block counter (0 for the first genesis record). */
function recordId(record: AppState | undefined): string | undefined {
  if (!record) return undefined;
  const type = codec.type("extmod.record.Record");
  const bytes = type.encode(codec.parser.parse(type, record)).finish();
  return Buffer.from(sha256(Buffer.concat([bytes, Buffer.alloc(4)]))).toString("hex");
}

/**
 * Example parameter values from the init home: the dev accounts, the validator
 * key, and what the modules put in the genesis (read loosely, since modules
 * join over time). Where the genesis has no entry, a well-formed value that
 * names nothing, so that the route answers 404.
 */
export function examplesFromHome(
  home: string,
  txHash: string,
  upgradeHeight: string,
): { path: (name: string, route: string) => string; query: Record<string, string> } {
  return examplesFromState(readAppState(path.join(home, "config", "genesis.json")), home, txHash, upgradeHeight);
}

export function readAppState(genesisFile: string): AppState {
  return (JSON.parse(fs.readFileSync(genesisFile, "utf8")) as { app_state: AppState }).app_state;
}

/** The same, from a genesis's app_state (an export's, say) and the home's dev accounts and validator key. */
export function examplesFromState(
  state: AppState,
  home: string,
  txHash: string,
  upgradeHeight: string,
): { path: (name: string, route: string) => string; query: Record<string, string> } {
  const key = JSON.parse(fs.readFileSync(path.join(home, "config", "priv_validator_key.json"), "utf8")) as { address: string };
  const prefixes = bech32Prefixes("hub");
  const account = readDevAccounts(home)!.accounts[0]!.address;
  const first = (module: string, field: string) => valuesOf(state[module], field)[0]?.toString();
  const operator = first("staking", "operator_address") ?? encodeBech32Address(prefixes.validatorOperator, decodeBech32Address(account, "hub", "account"));
  const collection = (state.nft?.collections as AppState[] | undefined)?.find((c) => c.nfts?.length > 0);
  const poolDenom = (valuesOf(state.bank, "denom") as string[]).find((d) => d.startsWith("swap/"))?.slice("swap/".length);
  const channels = state.ibc?.channel_genesis ?? {};
  const channel = channels.channels?.[0];
  const connection = state.ibc?.connection_genesis?.connections?.[0];
  const consensusHeight = state.ibc?.client_genesis?.clients_consensus?.[0]?.consensus_states?.[0]?.height;
  const trace = state.transfer?.denom_traces?.[0];
  const unbonding = state.staking?.unbonding_delegations?.[0];
  const [contextId, context] = Object.entries<AppState>((state.service?.request_contexts ?? {}) as Record<string, AppState>)[0] ?? [];
  const request = (state.service?.requests as AppState[] | undefined)?.[0]?.request;
  const hex = (bytes: number) => "A".repeat(bytes * 2);
  const byName: Record<string, (route: string) => string> = {
    address: () => account,
    delegator_address: () => first("staking", "delegator_address") ?? account,
    delegator_addr: (route) => (route.endsWith("/unbonding_delegation") ? unbonding?.delegator_address : first("staking", "delegator_address")) ?? account,
    validator_address: () => operator,
    validator_addr: (route) => (route.endsWith("/unbonding_delegation") ? unbonding?.validator_address : operator) ?? operator,
    depositor: () => first("gov", "depositor") ?? account,
    voter: () => first("gov", "voter") ?? account,
    owner: () => account,
    provider: () => first("service", "provider") ?? account,
    cons_address: () => first("slashing", "address") ?? encodeBech32Address(prefixes.consensus, Buffer.from(key.address, "hex")),
    denom: (route) => (route.startsWith("/extmod/coinswap/") ? (poolDenom ?? "uhub") : "uhub"),
    proposal_id: () => first("gov", "proposal_id") ?? "1",
    params_type: () => "deposit",
    height: () => "1",
    last_height: () => upgradeHeight,
    name: () => UPGRADE_NAME,
    evidence_hash: () => evidenceHash(state.evidence?.evidence?.[0]) ?? Buffer.alloc(32).toString("base64"),
    // ibc-go: a denom trace's hash is SHA-256 of "<path>/<base denom>"
    hash: (route) =>
      route.includes("denom_traces") && trace
        ? Buffer.from(sha256(new TextEncoder().encode(`${trace.path}/${trace.base_denom}`)))
            .toString("hex")
            .toUpperCase()
        : txHash,
    channel_id: () => channel?.channel_id ?? "channel-0",
    port_id: () => channel?.port_id ?? "transfer",
    connection: () => connection?.id ?? "connection-0",
    connection_id: () => connection?.id ?? "connection-0",
    client_id: () => connection?.client_id ?? "07-tendermint-0",
    revision_number: () => consensusHeight?.revision_number ?? "0",
    revision_height: () => consensusHeight?.revision_height ?? "1",
    sequence: (route) =>
      (route.includes("/packet_acks/") ? channels.acknowledgements : route.includes("/packet_receipts/") ? channels.receipts : channels.commitments)?.[0]
        ?.sequence ?? "1",
    packet_ack_sequences: () => "1,2",
    packet_commitment_sequences: () => "1,2",
    symbol: () => first("token", "symbol") ?? "hub",
    hash_lock: () => Object.keys(state.htlc?.pending_htlcs ?? {})[0] ?? hex(32),
    denom_id: () => collection?.denom?.id ?? "denom1",
    token_id: () => collection?.nfts?.[0]?.id ?? "token1",
    service_name: () => first("service", "service_name") ?? "service1",
    request_context_id: () => contextId ?? hex(40),
    batch_counter: () => context?.batch_counter ?? "1",
    // irismod: request context id (40 bytes), batch counter (8), request height (8), index in the batch (2)
    request_id: () => request?.id ?? (contextId ?? hex(40)) + "0".repeat(36),
    schema_name: () => "pricing",
    feed_name: () => first("oracle", "feed_name") ?? "feed1",
    req_id: () => Object.keys(state.random?.randoms ?? {})[0] ?? hex(32),
    record_id: () => recordId(state.record?.records?.[0]) ?? hex(32),
    // an account number: the genesis' first account has 0
    id: () => "0",
    address_string: () => account,
    address_bytes: () => Buffer.from(bech32.fromWords(bech32.decode(account).words)).toString("base64"),
  };
  return {
    path: (name, route) => {
      const example = byName[name];
      if (!example) throw new Error(`no example for path parameter {${name}} of ${route}: add one here`);
      return example(route);
    },
    // Query parameters that some methods need to answer at all.
    query: { subspace: "auth", key: "MaxMemoCharacters", events: `message.sender='${account}'`, owner: account, denom: "uhub" },
  };
}

export const UPGRADE_NAME = "v2";
