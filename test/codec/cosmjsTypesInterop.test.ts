// Byte-level interoperability of our .proto tree with cosmjs-types (the codecs that JS clients use).
//
// Every message codec exported by cosmjs-types under cosmos/, tendermint/ and ibc/ is mapped to our
// neutral name (cosmos.X -> core.X, tendermint.X -> consensus.X, ibc.X unchanged). For each one our
// root also has:
//   1. schema: every field number is compared (same number => same name, same wire type, same kind);
//   2. ours -> cosmjs: a sample built from our reflection (every field set) is encoded by protobufjs,
//      decoded by cosmjs-types and compared value by value, then re-encoded by cosmjs-types, decoded
//      by us and compared with the original;
//   3. cosmjs -> ours: a sample built from cosmjs-types' own field list goes the other way.
// cosmjs-types 0.11 follows SDK 0.50 / CometBFT 0.38 / ibc-go v8, while our tree is SDK v0.41 /
// Tendermint v0.34 / SDK-v0.41 IBC. Every intentional difference is listed in ALLOWED with a reason;
// anything else fails. Messages of ours without a cosmjs-types counterpart are not compared.

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { expect } from "chai";
import protobuf from "protobufjs";
import Long from "long";
import { loadProtoRoot } from "../../src/codec/protoRoot.js";
import { fieldText } from "../../src/codec/fieldText.js";

const require = createRequire(import.meta.url);
// the exports map hides package.json; binary.js sits at the package root
const COSMJS_DIR = path.dirname(require.resolve("cosmjs-types/binary"));

/** Fewer compared messages than this means the walk or the mapping broke; set from the real count. */
const MIN_COMPARED = 450; // 484 when written: core 278, consensus 71, ibc 135

/**
 * Known differences, keyed `<our full message name>#<field number>` (or `#*` for the whole message).
 * Each entry must still match a difference while the message is in our tree (stale entries fail).
 */
const ALLOWED: Record<string, string> = {
  // ---- core.base / core.tx ----
  "core.base.abci.v1beta1.Result#4": "msg_responses: added in SDK v0.46",
  "core.base.abci.v1beta1.TxMsgData#2": "msg_responses: added in SDK v0.46 (v0.41 has only data)",
  "core.base.consensus.v1beta1.GetBlockByHeightResponse#3": "sdk_block: added in SDK v0.47",
  "core.base.consensus.v1beta1.GetLatestBlockResponse#3": "sdk_block: added in SDK v0.47",
  "core.tx.v1beta1.AuthInfo#3": "tip: added in SDK v0.46",
  "core.tx.v1beta1.TxBody#4": "unordered: added after SDK v0.50 (unordered transactions)",
  "core.tx.v1beta1.TxBody#5": "timeout_timestamp: added after SDK v0.50 (unordered transactions)",
  "core.tx.v1beta1.GetTxsEventRequest#4": "page: added after v0.41 (SDK v0.46)",
  "core.tx.v1beta1.GetTxsEventRequest#5": "limit: added after v0.41 (SDK v0.46)",
  "core.tx.v1beta1.GetTxsEventRequest#6": "query: added in SDK v0.50 (replaces events)",
  "core.tx.v1beta1.GetTxsEventResponse#4": "total: added after v0.41 (SDK v0.46)",
  // ---- core.bank ----
  "core.bank.v1beta1.Metadata#5": "name: added after v0.41 (SDK v0.43)",
  "core.bank.v1beta1.Metadata#6": "symbol: added after v0.41 (SDK v0.43)",
  "core.bank.v1beta1.Metadata#7": "uri: added after v0.41 (SDK v0.43+)",
  "core.bank.v1beta1.Metadata#8": "uri_hash: added after v0.41 (SDK v0.43+)",
  "core.bank.v1beta1.GenesisState#5": "send_enabled: moved from Params into genesis in SDK v0.47",
  "core.bank.v1beta1.QueryAllBalancesRequest#3": "resolve_denom: added in SDK v0.50",
  "core.bank.v1beta1.QueryTotalSupplyRequest#1": "pagination: added in SDK v0.43; v0.41 TotalSupply is unpaginated",
  "core.bank.v1beta1.QueryTotalSupplyResponse#2": "pagination: added in SDK v0.43",
  // ---- core.distribution ----
  "core.distribution.v1beta1.MsgWithdrawDelegatorRewardResponse#1": "amount: added in SDK v0.46 (empty response in v0.41)",
  "core.distribution.v1beta1.MsgWithdrawValidatorCommissionResponse#1": "amount: added in SDK v0.46 (empty response in v0.41)",
  // ---- core.evidence ----
  "core.evidence.v1beta1.QueryEvidenceRequest#2": "hash (hex string): added after v0.41 (SDK v0.47+); v0.41 has only evidence_hash bytes",
  // ---- core.gov ----
  "core.gov.v1beta1.Vote#4": "options (weighted votes): added in SDK v0.43",
  // ---- core.staking ----
  "core.staking.v1beta1.Params#6": "min_commission_rate: added in SDK v0.46",
  "core.staking.v1beta1.Validator#12": "unbonding_on_hold_ref_count: added in SDK v0.47",
  "core.staking.v1beta1.Validator#13": "unbonding_ids: added in SDK v0.47",
  "core.staking.v1beta1.UnbondingDelegationEntry#5": "unbonding_id: added in SDK v0.47",
  "core.staking.v1beta1.UnbondingDelegationEntry#6": "unbonding_on_hold_ref_count: added in SDK v0.47",
  "core.staking.v1beta1.RedelegationEntry#5": "unbonding_id: added in SDK v0.47",
  "core.staking.v1beta1.RedelegationEntry#6": "unbonding_on_hold_ref_count: added in SDK v0.47",
  "core.staking.v1beta1.MsgUndelegateResponse#2": "amount: added in SDK v0.50",
  // ---- core.upgrade ----
  "core.upgrade.v1beta1.QueryUpgradedConsensusStateResponse#1": "v0.41 returns the state as an Any at field 1; SDK v0.43 reserved 1",
  "core.upgrade.v1beta1.QueryUpgradedConsensusStateResponse#2": "upgraded_consensus_state as bytes at field 2: SDK v0.43+",
  // ---- consensus (Tendermint v0.34 here, CometBFT 0.38 in cosmjs-types) ----
  "consensus.abci.Request#4": "set_option: Tendermint v0.34 only (removed in 0.35)",
  "consensus.abci.Request#7": "begin_block: Tendermint v0.34 (replaced by finalize_block in CometBFT 0.38)",
  "consensus.abci.Request#9": "deliver_tx: Tendermint v0.34 (replaced by finalize_block in CometBFT 0.38)",
  "consensus.abci.Request#10": "end_block: Tendermint v0.34 (replaced by finalize_block in CometBFT 0.38)",
  "consensus.abci.Request#16": "prepare_proposal: ABCI++ (CometBFT 0.37+)",
  "consensus.abci.Request#17": "process_proposal: ABCI++ (CometBFT 0.37+)",
  "consensus.abci.Request#18": "extend_vote: ABCI 2.0 (CometBFT 0.38)",
  "consensus.abci.Request#19": "verify_vote_extension: ABCI 2.0 (CometBFT 0.38)",
  "consensus.abci.Request#20": "finalize_block: ABCI 2.0 (CometBFT 0.38)",
  "consensus.abci.RequestInfo#4": "abci_version: added in Tendermint 0.35",
  "consensus.abci.Response#5": "set_option: Tendermint v0.34 only (removed in 0.35)",
  "consensus.abci.Response#8": "begin_block: Tendermint v0.34 (replaced by finalize_block in CometBFT 0.38)",
  "consensus.abci.Response#10": "deliver_tx: Tendermint v0.34 (replaced by finalize_block in CometBFT 0.38)",
  "consensus.abci.Response#11": "end_block: Tendermint v0.34 (replaced by finalize_block in CometBFT 0.38)",
  "consensus.abci.Response#17": "prepare_proposal: ABCI++ (CometBFT 0.37+)",
  "consensus.abci.Response#18": "process_proposal: ABCI++ (CometBFT 0.37+)",
  "consensus.abci.Response#19": "extend_vote: ABCI 2.0 (CometBFT 0.38)",
  "consensus.abci.Response#20": "verify_vote_extension: ABCI 2.0 (CometBFT 0.38)",
  "consensus.abci.Response#21": "finalize_block: ABCI 2.0 (CometBFT 0.38)",
  "consensus.abci.ResponseCommit#2": "data (the app hash): Tendermint v0.34; removed in CometBFT 0.38",
  "consensus.abci.EventAttribute#1": "key is bytes in Tendermint v0.34, string from CometBFT 0.37",
  "consensus.abci.EventAttribute#2": "value is bytes in Tendermint v0.34, string from CometBFT 0.37",
  "consensus.abci.VoteInfo#2": "signed_last_block: Tendermint v0.34; replaced by block_id_flag in CometBFT 0.38",
  "consensus.abci.VoteInfo#3": "block_id_flag: CometBFT 0.38",
  "consensus.types.ConsensusParams#5": "abci params: CometBFT 0.38",
  "consensus.types.BlockParams#3": "time_iota_ms: Tendermint v0.34; removed in CometBFT 0.37",
  "consensus.types.VersionParams#1": "named app_version in Tendermint v0.34, app in CometBFT 0.38 (same number and type)",
  "consensus.types.Vote#9": "extension: vote extensions, CometBFT 0.38",
  "consensus.types.Vote#10": "extension_signature: vote extensions, CometBFT 0.38",
  // ---- ibc (SDK v0.41 IBC here, ibc-go v8+ in cosmjs-types) ----
  "ibc.applications.transfer.v1.GenesisState#2": "denom_traces in SDK v0.41; ibc-go v10 replaced traces with denoms",
  "ibc.applications.transfer.v1.GenesisState#4": "total_escrowed: ibc-go v7+",
  "ibc.applications.transfer.v1.FungibleTokenPacketData#2": "amount is uint64 in SDK v0.41, a string from ibc-go v1",
  "ibc.applications.transfer.v1.FungibleTokenPacketData#5": "memo: ibc-go v5+",
  "ibc.applications.transfer.v1.MsgTransfer#8": "memo: ibc-go v5+",
  "ibc.applications.transfer.v1.MsgTransfer#9": "encoding: ibc-go v9+",
  "ibc.applications.transfer.v1.MsgTransferResponse#1": "sequence: ibc-go v4+ (empty response in SDK v0.41)",
  "ibc.core.channel.v1.QueryPacketAcknowledgementsRequest#4": "packet_commitment_sequences filter: ibc-go v3+",
  "ibc.core.channel.v1.MsgChannelOpenInitResponse#1": "channel_id: ibc-go v3+ (empty response in SDK v0.41)",
  "ibc.core.channel.v1.MsgChannelOpenInitResponse#2": "version: ibc-go v3+",
  "ibc.core.channel.v1.MsgChannelOpenTryResponse#1": "version: ibc-go v3+ (empty response in SDK v0.41)",
  "ibc.core.channel.v1.MsgChannelOpenTryResponse#2": "channel_id: ibc-go v7+",
  "ibc.core.channel.v1.MsgRecvPacketResponse#1": "result: ibc-go v4+ (empty response in SDK v0.41)",
  "ibc.core.channel.v1.MsgTimeoutResponse#1": "result: ibc-go v4+ (empty response in SDK v0.41)",
  "ibc.core.channel.v1.MsgTimeoutOnCloseResponse#1": "result: ibc-go v4+ (empty response in SDK v0.41)",
  "ibc.core.channel.v1.MsgAcknowledgementResponse#1": "result: ibc-go v4+ (empty response in SDK v0.41)",
  "ibc.core.client.v1.MsgCreateClientResponse#1": "client_id: ibc-go v8+ (empty response in SDK v0.41)",
  "ibc.core.client.v1.MsgUpdateClient#2": "header in SDK v0.41, renamed client_message in ibc-go v7 (same number, both Any)",
  "ibc.core.connection.v1.GenesisState#4": "params: ibc-go v2+",
  "ibc.core.connection.v1.MsgConnectionOpenTry#13": "host_consensus_state_proof: ibc-go v7+",
  "ibc.core.connection.v1.MsgConnectionOpenAck#11": "host_consensus_state_proof: ibc-go v7+",
  "ibc.core.types.v1.GenesisState#4": "client_v2_genesis: IBC v2 (ibc-go v10)",
  "ibc.core.types.v1.GenesisState#5": "channel_v2_genesis: IBC v2 (ibc-go v10)",
};

// ---------------------------------------------------------------------------------------------
// cosmjs-types side

interface CosmjsCodec {
  typeUrl: string;
  encode(message: unknown): { finish(): Uint8Array };
  decode(input: Uint8Array): Record<string, unknown>;
  fromPartial(object: unknown): Record<string, unknown>;
}

interface CosmjsField {
  key: string;
  number: number;
  wireType: number;
  /** kind of the default value: string, bigint, number, boolean, bytes, array, message, undefined, map */
  kind: string;
  /** a non-default value that survives cosmjs' own encode/decode */
  sample: unknown;
}

interface CosmjsEntry {
  codec: CosmjsCodec;
  cosmjsName: string;
  area: string; // cosmos | tendermint | ibc | google
}

function isCodec(v: unknown): v is CosmjsCodec {
  if (v === null || typeof v !== "object") return false;
  const o = v as Record<string, unknown>;
  return typeof o.typeUrl === "string" && typeof o.encode === "function" && typeof o.decode === "function" && typeof o.fromPartial === "function";
}

function listJs(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith(".js"))
    .sort()
    .map((f) => path.join(dir, f));
}

/** Candidate names of ours for a cosmjs full name. */
function ourNameCandidates(cosmjsName: string): string[] {
  const out: string[] = [];
  const add = (n: string) => {
    if (!out.includes(n)) out.push(n);
  };
  if (cosmjsName.startsWith("cosmos.base.tendermint.")) add("core.base.consensus." + cosmjsName.slice(23));
  if (cosmjsName.startsWith("cosmos.ics23.v1.")) add("ics23." + cosmjsName.slice(16));
  if (cosmjsName.startsWith("cosmos.")) add("core." + cosmjsName.slice(7));
  else if (cosmjsName.startsWith("tendermint.")) add("consensus." + cosmjsName.slice(11));
  else add(cosmjsName);
  if (cosmjsName.startsWith("ibc.") && cosmjsName.includes(".tendermint.")) {
    add(cosmjsName.replace(".tendermint.", ".consensus."));
  }
  return out;
}

function loadCosmjs(): CosmjsEntry[] {
  const entries: CosmjsEntry[] = [];
  for (const area of ["cosmos", "tendermint", "ibc", "google"]) {
    for (const file of listJs(path.join(COSMJS_DIR, area))) {
      const mod = require(file) as Record<string, unknown>;
      const pkg = typeof mod.protobufPackage === "string" ? mod.protobufPackage : undefined;
      if (!pkg) continue;
      for (const [exportName, value] of Object.entries(mod)) {
        if (!isCodec(value)) continue;
        // Nested messages are exported as Outer_Inner; their typeUrl drops the outer name.
        entries.push({ codec: value, cosmjsName: `${pkg}.${exportName.replace(/_/g, ".")}`, area });
      }
    }
  }
  return entries;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Uint8Array);
}

function kindOf(v: unknown): string {
  if (v === undefined) return "undefined";
  if (typeof v === "string") return "string";
  if (typeof v === "bigint") return "bigint";
  if (typeof v === "number") return "number";
  if (typeof v === "boolean") return "boolean";
  if (v instanceof Uint8Array) return "bytes";
  if (Array.isArray(v)) return "array";
  if (isPlainObject(v)) return Object.keys(v).length === 0 ? "map" : "message";
  return "unknown";
}

function readTags(bytes: Uint8Array): Array<{ number: number; wireType: number; raw: string }> {
  const r = protobuf.Reader.create(bytes);
  const tags: Array<{ number: number; wireType: number; raw: string }> = [];
  while (r.pos < r.len) {
    const start = r.pos;
    const tag = r.uint32();
    r.skipType(tag & 7);
    tags.push({ number: tag >>> 3, wireType: tag & 7, raw: Buffer.from(bytes.subarray(start, r.pos)).toString("hex") });
  }
  return tags;
}

/** Encoded segments per field number (a field may occur several times). */
function segments(bytes: Uint8Array): Map<number, string> {
  const out = new Map<number, string>();
  for (const t of readTags(bytes)) out.set(t.number, (out.get(t.number) ?? "") + t.raw);
  return out;
}

/** A comparable form: bigint and Uint8Array become tagged strings, undefined keys are dropped. */
function norm(v: unknown): unknown {
  if (typeof v === "bigint") return `int:${v.toString()}`;
  if (Long.isLong(v)) return `int:${v.toString()}`;
  if (v instanceof Uint8Array) return `bytes:${Buffer.from(v).toString("base64")}`;
  if (Array.isArray(v)) return v.map(norm);
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = norm(x);
    return out;
  }
  return v;
}

const BIG = 1234567890123n;

function candidatesFor(kind: string, defaultValue: unknown): unknown[] {
  const scalars: unknown[] = ["x7", BIG, 7, true, Uint8Array.of(1, 2, 3)];
  switch (kind) {
    case "string":
      return ["x7"];
    case "bigint":
      return [BIG];
    case "number":
      return [7];
    case "boolean":
      return [true];
    case "bytes":
      return [Uint8Array.of(1, 2, 3)];
    case "array":
      return [...scalars.map((s) => [s, s]), [{}, {}]];
    case "message":
      return [defaultValue];
    case "map":
      return [...scalars, {}].map((s) => ({ a: s }));
    default:
      return [{}, ...scalars];
  }
}

const discovered = new Map<CosmjsCodec, Map<number, CosmjsField>>();

/** Field numbers, wire types and kinds of a cosmjs codec, found by encoding one field at a time. */
function discoverFields(codec: CosmjsCodec): Map<number, CosmjsField> {
  const cached = discovered.get(codec);
  if (cached) return cached;
  const fields = new Map<number, CosmjsField>();
  discovered.set(codec, fields);
  const base = codec.fromPartial({});
  const clean: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(base)) if (kindOf(v) === "message") clean[k] = undefined;
  const segmentsOf = (obj: Record<string, unknown>): Map<number, string> | undefined => {
    try {
      return segments(codec.encode(obj).finish());
    } catch {
      return undefined;
    }
  };
  // Telescope writes empty packed fields, so a field is found by its segment changing, not appearing.
  const baseline = segmentsOf(clean) ?? new Map<number, string>();
  for (const [key, defaultValue] of Object.entries(base)) {
    const kind = kindOf(defaultValue);
    let found: CosmjsField | undefined;
    for (const candidate of candidatesFor(kind, defaultValue)) {
      let value: unknown;
      let bytes: Uint8Array;
      try {
        value = kind === "message" ? candidate : codec.fromPartial({ [key]: candidate })[key];
        bytes = codec.encode({ ...clean, [key]: value }).finish();
        const back = codec.decode(bytes)[key];
        expect(norm(back)).to.deep.equal(norm(value));
      } catch {
        continue;
      }
      const fresh = readTags(bytes).filter((t) => segments(bytes).get(t.number) !== baseline.get(t.number));
      const numbers = new Set(fresh.map((t) => t.number));
      if (numbers.size !== 1) continue;
      found = { key, number: fresh[0]!.number, wireType: fresh[0]!.wireType, kind, sample: value };
      break;
    }
    if (!found && kind === "map") {
      // An empty non-nullable message: always encoded; find its number by leaving it out.
      const without = segmentsOf({ ...clean, [key]: undefined });
      const missing = without ? [...baseline.keys()].filter((n) => !without.has(n)) : [];
      if (missing.length === 1) {
        const tag = readTags(codec.encode(clean).finish()).find((t) => t.number === missing[0]);
        found = { key, number: missing[0]!, wireType: tag?.wireType ?? 2, kind: "message", sample: defaultValue };
      }
    }
    if (found) fields.set(found.number, found);
  }
  return fields;
}

// ---------------------------------------------------------------------------------------------
// our side

const LONG_TYPES = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);
const INT32_TYPES = new Set(["int32", "uint32", "sint32", "fixed32", "sfixed32"]);
const VARINT_TYPES = new Set(["int32", "int64", "uint32", "uint64", "sint32", "sint64", "bool"]);

function isEnum(f: protobuf.Field): boolean {
  return f.resolvedType instanceof protobuf.Enum;
}

function isMessage(f: protobuf.Field): boolean {
  return f.resolvedType instanceof protobuf.Type;
}

function expectedWireType(f: protobuf.Field): number {
  if (f.map || isMessage(f) || f.type === "string" || f.type === "bytes") return 2;
  if (f.repeated) return 2; // packed scalars (proto3 default on both sides)
  if (isEnum(f) || VARINT_TYPES.has(f.type)) return 0;
  if (["fixed64", "sfixed64", "double"].includes(f.type)) return 1;
  return 5;
}

function expectedKinds(f: protobuf.Field): string[] {
  if (f.map) return ["map"];
  if (f.repeated) return ["array"];
  if (isMessage(f)) return ["message", "map", "undefined"];
  if (f.partOf && f.partOf.fieldsArray.length > 1) return ["undefined"]; // oneof members default to undefined
  if (isEnum(f) || INT32_TYPES.has(f.type) || f.type === "float" || f.type === "double") return ["number"];
  if (LONG_TYPES.has(f.type)) return ["bigint"];
  if (f.type === "bool") return ["boolean"];
  if (f.type === "string") return ["string"];
  if (f.type === "bytes") return ["bytes"];
  return ["?"];
}

/** The JS name cosmjs-types (telescope) gives a proto field: snake_case -> camelCase. */
function camel(n: string): string {
  return n.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

function normName(n: string): string {
  return n.replace(/_/g, "").toLowerCase();
}

function fullName(t: protobuf.ReflectionObject): string {
  return t.fullName.replace(/^\./, "");
}

function isRealOneof(f: protobuf.Field): boolean {
  return !!f.partOf && !(f.partOf.fieldsArray.length === 1 && f.partOf.name.startsWith("_"));
}

// ---------------------------------------------------------------------------------------------
// the comparison

interface Problem {
  key: string; // type#number (or type#*)
  text: string;
}

class Comparer {
  readonly problems: Problem[] = [];
  readonly allowed: Problem[] = [];
  readonly seenKeys = new Set<string>();
  private readonly byOurName = new Map<string, CosmjsEntry>();
  private readonly excludedCache = new Map<string, Set<number>>();

  constructor(
    readonly root: protobuf.Root,
    entries: CosmjsEntry[],
  ) {
    for (const e of entries) {
      for (const n of ourNameCandidates(e.cosmjsName)) {
        if (!this.byOurName.has(n) && this.ourType(n)) this.byOurName.set(n, e);
      }
    }
  }

  ourType(name: string): protobuf.Type | undefined {
    try {
      const t = this.root.lookup(name);
      return t instanceof protobuf.Type ? t : undefined;
    } catch {
      return undefined;
    }
  }

  counterpart(t: protobuf.Type): CosmjsEntry | undefined {
    return this.byOurName.get(fullName(t));
  }

  /** Records a difference: allowed when ALLOWED lists it, otherwise a problem. */
  report(typeName: string, number: number | "*", text: string): void {
    const key = `${typeName}#${number}`;
    this.seenKeys.add(key);
    if (ALLOWED[key] !== undefined || ALLOWED[`${typeName}#*`] !== undefined) {
      this.seenKeys.add(`${typeName}#*`);
      this.allowed.push({ key, text: `${key}: ${text}` });
      return;
    }
    this.problems.push({ key, text: `${key}: ${text}` });
  }

  /** Field numbers whose definitions differ (excluded from samples and value comparisons). */
  excluded(t: protobuf.Type): Set<number> {
    const name = fullName(t);
    const cached = this.excludedCache.get(name);
    if (cached) return cached;
    const out = new Set<number>();
    this.excludedCache.set(name, out);
    const cp = this.counterpart(t);
    if (!cp) return out;
    const theirs = discoverFields(cp.codec);
    for (const f of t.fieldsArray) {
      const c = theirs.get(f.id);
      if (c && !this.sameField(f, c)) out.add(f.id);
    }
    if (ALLOWED[`${name}#*`] !== undefined) for (const f of t.fieldsArray) out.add(f.id);
    return out;
  }

  sameField(f: protobuf.Field, c: CosmjsField): boolean {
    return camel(f.name) === c.key && c.wireType === expectedWireType(f) && (c.kind === "undefined" || expectedKinds(f).includes(c.kind));
  }

  /** Keys of cosmjs' object for the fields of ours that are compared (number -> key). */
  sharedKeys(t: protobuf.Type): Map<number, string> | undefined {
    const cp = this.counterpart(t);
    if (!cp) return undefined;
    const theirs = discoverFields(cp.codec);
    const excl = this.excluded(t);
    const out = new Map<number, string>();
    for (const f of t.fieldsArray) {
      const c = theirs.get(f.id);
      if (c && !excl.has(f.id)) out.set(f.id, c.key);
    }
    return out;
  }

  // ---- 1. schema ----
  compareSchema(t: protobuf.Type, codec: CosmjsCodec): void {
    const name = fullName(t);
    const theirs = discoverFields(codec);
    const base = codec.fromPartial({});
    const undiscovered = Object.keys(base).filter((k) => ![...theirs.values()].some((c) => c.key === k));
    for (const k of undiscovered) this.report(name, "*", `could not find the field number of cosmjs field '${k}'`);
    for (const f of t.fieldsArray) {
      const c = theirs.get(f.id);
      if (!c) {
        this.report(name, f.id, `field ${f.id} '${f.name}' (${f.type}) is ours only`);
      } else if (!this.sameField(f, c)) {
        this.report(
          name,
          f.id,
          `field ${f.id}: ours '${f.name}' ${f.repeated ? "repeated " : ""}${f.type} (wire ${expectedWireType(f)}), ` +
            `cosmjs '${c.key}' ${c.kind} (wire ${c.wireType})`,
        );
      }
    }
    for (const c of theirs.values()) {
      if (!t.fieldsById[c.number]) this.report(name, c.number, `field ${c.number} '${c.key}' (${c.kind}) is cosmjs-types only`);
    }
  }

  // ---- 2. ours -> cosmjs -> ours ----
  sample(t: protobuf.Type, depth: number, seed: number): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    const excl = this.excluded(t);
    const usedOneofs = new Set<string>();
    if (fullName(t) === "google.protobuf.Any") {
      const coin = this.ourType("core.base.v1beta1.Coin");
      if (coin) {
        const value = coin.encode(coin.fromObject({ denom: `d${seed}`, amount: `${seed + 10}` })).finish();
        return { type_url: "/core.base.v1beta1.Coin", value };
      }
    }
    for (const f of t.fieldsArray) {
      if (excl.has(f.id)) continue;
      if (isRealOneof(f)) {
        if (usedOneofs.has(f.partOf!.name)) continue;
      }
      const one = (i: number): unknown => this.scalarOrMessage(f, depth, seed + i);
      let v: unknown;
      if (f.map) {
        const v1 = one(1);
        const v2 = one(2);
        if (v1 === undefined) continue;
        const keyOf = (i: number) => ((f as unknown as protobuf.MapField).keyType === "string" ? `k${i}` : String(i + 1));
        v = { [keyOf(1)]: v1, [keyOf(2)]: v2 };
      } else if (f.repeated) {
        const a = one(1);
        if (a === undefined) continue;
        v = [a, one(2)];
      } else {
        v = one(0);
        if (v === undefined) continue;
      }
      if (isRealOneof(f)) usedOneofs.add(f.partOf!.name);
      obj[f.name] = v;
    }
    return obj;
  }

  private scalarOrMessage(f: protobuf.Field, depth: number, seed: number): unknown {
    if (isMessage(f)) {
      if (depth <= 0) return undefined;
      return this.sample(f.resolvedType as protobuf.Type, depth - 1, seed + f.id);
    }
    if (isEnum(f)) {
      const values = Object.values((f.resolvedType as protobuf.Enum).values);
      return values.find((v) => v !== 0) ?? 0;
    }
    const n = seed + f.id;
    switch (f.type) {
      case "string":
        return `s${n}_${f.name}`;
      case "bool":
        return true;
      case "bytes":
        return Uint8Array.of(1, 2, n & 0xff);
      case "float":
        return 1.5;
      case "double":
        return 2.25;
      case "int32":
      case "sint32":
      case "sfixed32":
        return -(n + 3);
      case "uint32":
      case "fixed32":
        return n + 3;
      case "int64":
      case "sint64":
      case "sfixed64":
        return Long.fromString(`-${BIG + BigInt(n)}`);
      case "uint64":
      case "fixed64":
        return Long.fromString(`${BIG + BigInt(n)}`, true);
      default:
        return undefined;
    }
  }

  toPlain(t: protobuf.Type, msg: protobuf.Message, defaults = false): Record<string, unknown> {
    return t.toObject(msg, { longs: String, enums: Number, bytes: String, defaults });
  }

  /** Our plain object (toObject form) against a cosmjs object, on the compared fields. */
  compareWithCosmjs(t: protobuf.Type, ours: Record<string, unknown> | null | undefined, theirs: unknown, where: string): void {
    const name = fullName(t);
    if (ours === null || ours === undefined) {
      if (!isDefaultish(theirs)) this.report(name, "*", `${where}: ours unset, cosmjs ${JSON.stringify(norm(theirs))}`);
      return;
    }
    if (!isPlainObject(theirs)) {
      this.report(name, "*", `${where}: cosmjs value is not an object: ${String(theirs)}`);
      return;
    }
    const shared = this.sharedKeys(t);
    for (const f of t.fieldsArray) {
      const key = shared ? shared.get(f.id) : Object.keys(theirs).find((k) => normName(k) === normName(f.name));
      if (key === undefined) continue;
      const a = ours[f.name];
      const b = theirs[key];
      const at = `${where}.${f.name}`;
      if (f.repeated || f.map) {
        const aa = f.map ? Object.values(a ?? {}) : ((a ?? []) as unknown[]);
        const bb = f.map ? Object.values(b ?? {}) : ((b ?? []) as unknown[]);
        if (aa.length !== bb.length) {
          this.report(name, f.id, `${at}: ${aa.length} elements ours, ${bb.length} cosmjs`);
          continue;
        }
        aa.forEach((x, i) => this.compareOne(t, f, x, bb[i], `${at}[${i}]`));
      } else {
        this.compareOne(t, f, a, b, at);
      }
    }
  }

  private compareOne(t: protobuf.Type, f: protobuf.Field, a: unknown, b: unknown, at: string): void {
    const name = fullName(t);
    if (isMessage(f)) {
      this.compareWithCosmjs(f.resolvedType as protobuf.Type, a as Record<string, unknown> | undefined, b, at);
      return;
    }
    let ok: boolean;
    if (a === undefined || a === null) ok = isDefaultish(b);
    else if (f.type === "bytes") ok = b instanceof Uint8Array && Buffer.from(b).toString("base64") === a;
    else if (LONG_TYPES.has(f.type)) ok = typeof b === "bigint" && b.toString() === fieldText(a);
    else ok = a === b;
    if (!ok) this.report(name, f.id, `${at}: ours ${JSON.stringify(a)}, cosmjs ${JSON.stringify(norm(b))}`);
  }

  /** Two plain objects of ours, on the compared fields. */
  compareOurs(t: protobuf.Type, a: unknown, b: unknown, where: string): void {
    const name = fullName(t);
    const shared = this.sharedKeys(t);
    const ao = (a ?? {}) as Record<string, unknown>;
    const bo = (b ?? {}) as Record<string, unknown>;
    for (const f of t.fieldsArray) {
      if (shared && !shared.has(f.id)) continue;
      const x = ao[f.name];
      const y = bo[f.name];
      const at = `${where}.${f.name}`;
      if (isMessage(f)) {
        const sub = f.resolvedType as protobuf.Type;
        if (f.repeated || f.map) {
          const xs = f.map ? Object.values(x ?? {}) : ((x ?? []) as unknown[]);
          const ys = f.map ? Object.values(y ?? {}) : ((y ?? []) as unknown[]);
          if (xs.length !== ys.length) this.report(name, f.id, `${at}: ${xs.length} elements before, ${ys.length} after round trip`);
          else xs.forEach((e, i) => this.compareOurs(sub, e, ys[i], `${at}[${i}]`));
        } else if ((x === undefined) !== (y === undefined)) {
          // cosmjs always writes non-nullable messages, so an unset one may come back empty
          if (isDefaultish(x) && isDefaultish(y)) continue;
          this.report(name, f.id, `${at}: ${x === undefined ? "absent" : "present"} before, ${y === undefined ? "absent" : "present"} after round trip`);
        } else if (x !== undefined) {
          this.compareOurs(sub, x, y, at);
        }
      } else if (JSON.stringify(x) !== JSON.stringify(y)) {
        this.report(name, f.id, `${at}: ${JSON.stringify(x)} before, ${JSON.stringify(y)} after round trip`);
      }
    }
  }

  oursToCosmjs(t: protobuf.Type, codec: CosmjsCodec): void {
    const name = fullName(t);
    const original = t.fromObject(this.sample(t, 4, 0));
    const bytes = t.encode(original).finish();
    const plain = this.toPlain(t, original);
    let decoded: Record<string, unknown>;
    let again: Uint8Array;
    try {
      decoded = codec.decode(bytes);
      again = codec.encode(decoded).finish();
    } catch (e) {
      this.report(name, "*", `cosmjs could not decode/encode our sample: ${(e as Error).message}`);
      return;
    }
    this.compareWithCosmjs(t, plain, decoded, name);
    let back: protobuf.Message;
    try {
      back = t.decode(again);
    } catch (e) {
      this.report(name, "*", `we could not decode cosmjs' re-encoding: ${(e as Error).message}`);
      return;
    }
    this.compareOurs(t, plain, this.toPlain(t, back), name);
  }

  // ---- 3. cosmjs -> ours -> cosmjs ----
  cosmjsToOurs(t: protobuf.Type, codec: CosmjsCodec): void {
    const name = fullName(t);
    const theirs = discoverFields(codec);
    const excl = this.excluded(t);
    const partial: Record<string, unknown> = {};
    const usedOneofs = new Set<string>();
    for (const c of theirs.values()) {
      const f = t.fieldsById[c.number];
      if (f && excl.has(f.id)) continue;
      if (f && isRealOneof(f)) {
        if (usedOneofs.has(f.partOf!.name)) continue;
        usedOneofs.add(f.partOf!.name);
      }
      partial[c.key] = c.sample;
    }
    let sample: Record<string, unknown>;
    let bytes: Uint8Array;
    try {
      sample = codec.fromPartial(partial);
      bytes = codec.encode(sample).finish();
    } catch (e) {
      this.report(name, "*", `cosmjs could not build its own sample: ${(e as Error).message}`);
      return;
    }
    let ours: protobuf.Message;
    let again: Uint8Array;
    try {
      ours = t.decode(bytes);
      again = t.encode(ours).finish();
    } catch (e) {
      this.report(name, "*", `we could not decode/encode cosmjs' sample: ${(e as Error).message}`);
      return;
    }
    this.compareWithCosmjs(t, this.toPlain(t, ours, true), sample, `${name}<-cosmjs`);
    let back: Record<string, unknown>;
    try {
      back = codec.decode(again);
    } catch (e) {
      this.report(name, "*", `cosmjs could not decode our re-encoding: ${(e as Error).message}`);
      return;
    }
    const shared = this.sharedKeys(t) ?? new Map<number, string>();
    for (const [num, key] of shared) {
      const x = JSON.stringify(norm(sample[key]));
      const y = JSON.stringify(norm(back[key]));
      if (x !== y) this.report(name, num, `cosmjs->ours->cosmjs changed '${key}': ${x} -> ${y}`);
    }
  }

  compare(t: protobuf.Type, codec: CosmjsCodec): void {
    const before = this.problems.length;
    this.compareSchema(t, codec);
    try {
      this.oursToCosmjs(t, codec);
      this.cosmjsToOurs(t, codec);
    } catch (e) {
      if (this.problems.length === before) this.report(fullName(t), "*", `comparison threw: ${(e as Error).stack}`);
    }
  }
}

function isDefaultish(v: unknown): boolean {
  if (v === undefined || v === null || v === "" || v === 0 || v === false) return true;
  if (typeof v === "bigint") return v === 0n;
  if (v instanceof Uint8Array) return v.length === 0;
  if (Array.isArray(v)) return v.length === 0;
  if (isPlainObject(v)) return Object.values(v).every(isDefaultish);
  return false;
}

// ---------------------------------------------------------------------------------------------

describe("proto tree interoperates with cosmjs-types", function () {
  this.timeout(120_000);

  const root = loadProtoRoot();
  const entries = loadCosmjs();
  const comparer = new Comparer(root, entries);
  type Area = "core" | "consensus" | "ibc";
  const compared: Record<Area, string[]> = { core: [], consensus: [], ibc: [] };
  const problemsByArea: Record<Area, string[]> = { core: [], consensus: [], ibc: [] };

  before(function () {
    const done = new Set<string>();
    for (const e of entries) {
      if (e.area === "google") continue;
      const ourName = ourNameCandidates(e.cosmjsName).find((n) => comparer.ourType(n));
      if (!ourName || done.has(ourName)) continue;
      done.add(ourName);
      const area = ourName.startsWith("core.") ? "core" : ourName.startsWith("consensus.") ? "consensus" : "ibc";
      const t = comparer.ourType(ourName)!;
      const before = comparer.problems.length;
      comparer.compare(t, e.codec);
      compared[area].push(ourName);
      for (const p of comparer.problems.slice(before)) problemsByArea[area].push(p.text);
    }
    const total = Object.values(compared).reduce((n, l) => n + l.length, 0);
    console.log(
      `      compared ${total} messages with cosmjs-types ` +
        `(core ${compared.core.length}, consensus ${compared.consensus.length}, ibc ${compared.ibc.length}); ` +
        `${comparer.allowed.length} allow-listed differences`,
    );
    if (process.env.INTEROP_VERBOSE) for (const p of comparer.allowed) console.log(`      allowed ${p.text}`);
  });

  it(`compares at least ${MIN_COMPARED} messages`, function () {
    const total = Object.values(compared).reduce((n, l) => n + l.length, 0);
    expect(total).to.be.at.least(MIN_COMPARED);
    expect(compared.core.length, "core messages compared").to.be.at.least(270);
  });

  for (const area of ["core", "consensus", "ibc"] as const) {
    it(`${area}.* messages match cosmjs-types (except the allow-list)`, function () {
      if (compared[area].length === 0 && area !== "core") this.skip();
      const problems = problemsByArea[area];
      expect(problems, `${problems.length} differences:\n${problems.join("\n")}`).to.deep.equal([]);
    });
  }

  it("has no stale allow-list entries", function () {
    const stale = Object.keys(ALLOWED).filter((key) => {
      const typeName = key.slice(0, key.indexOf("#"));
      if (!comparer.ourType(typeName)) return false; // that message is not in our tree (yet)
      return !comparer.seenKeys.has(key);
    });
    expect(stale, `allow-list entries that match no difference:\n${stale.join("\n")}`).to.deep.equal([]);
  });
});
