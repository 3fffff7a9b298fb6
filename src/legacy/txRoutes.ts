import { isJsonObject } from "../codec/json/jsonNumberForms.js";
import protobuf from "protobufjs";
import Long from "long";
import { NodeRpcError } from "../client/chainClient.js";
import { encodeBech32Address } from "../codec/bech32.js";
import type { JsonValue, ProtoMessage } from "../codec/json/renderProto3.js";
import { aminoPrefix, AminoBinaryError } from "../codec/amino/aminoBinary.js";
import { AminoJsonError } from "../codec/amino/aminoJsonParser.js";
import { parseStdTx, stdTxFromTx, stdTxToTxRaw, txFromAminoStdTx, txFromTxRaw, type StdTxInput } from "../codec/amino/stdTx.js";
import { pubKeyAddress, UnknownKeyTypeError } from "../codec/amino/pubKeyAddress.js";
import { committedTxResponse } from "../methods/tx/txResponse.js";
import type { ActionHandler } from "../tables/legacyRouteSpec.js";
import { fillText } from "../tables/legacyTemplates.js";
import { invoke, type LegacyDeps } from "./legacyDeps.js";
import { LegacyError } from "./legacyErrors.js";
import { pageAndLimit } from "./legacyParams.js";
import { fieldText } from "../codec/fieldText.js";
import { queryProblem } from "../events/eventQuery.js";
import { lookupType, lookupEnum } from "../codec/typeRegistry.js";

const BROADCAST = {
  methodPath: "/core.tx.v1beta1.Service/BroadcastTx",
  request: "core.tx.v1beta1.BroadcastTxRequest",
  response: "core.tx.v1beta1.BroadcastTxResponse",
};
const ACCOUNT = {
  methodPath: "/core.auth.v1beta1.Query/Account",
  request: "core.auth.v1beta1.QueryAccountRequest",
  response: "core.auth.v1beta1.QueryAccountResponse",
};

type Action<K extends ActionHandler["kind"]> = Extract<ActionHandler, { kind: K }>;

/**
 * POST /txs: {tx: StdTx, mode} → the protobuf tx signed in LEGACY_AMINO_JSON,
 * each signer's sequence filled from its account (the real v0.41 server wrote 0,
 * which made the tx bytes malleable), broadcast in the mode; the TxResponse.
 */
export async function broadcastStdTx(handler: Action<"broadcast-std-tx">, body: unknown, deps: LegacyDeps): Promise<JsonValue> {
  const request = objectBody(body);
  const mode = handler.modes.get(fieldText(request.mode));
  const input = parseStdTx(deps.aminoParser, unwrapStdTx(request.tx, "tx", deps), "tx");
  if (!mode) throw new LegacyError(400, `unsupported return type ${fieldText(request.mode)}; supported types: ${[...handler.modes.keys()].join(", ")}`);
  const call = { methodPath: BROADCAST.methodPath, requestType: deps.codec.type(BROADCAST.request), responseType: deps.codec.type(BROADCAST.response) };
  const modeNumber = lookupEnum(deps.codec.root, "core.tx.v1beta1.BroadcastMode").values[mode];
  const sequences = await signerSequences(input, deps);
  for (let attempt = 0; ; attempt++) {
    const bytes = stdTxToTxRaw(deps.codec.root, input, sequences);
    const answer = await invoke(call, { tx_bytes: bytes, mode: modeNumber }, 0, deps);
    const response = (answer.msg.tx_response ?? {}) as ProtoMessage;
    // one correction per signer at most: each mismatch names the check state's sequence of the first signer that lags
    if (attempt >= sequences.length || !correctLaggingSequence(response, sequences)) {
      return deps.amino.render(deps.codec.type("core.base.abci.v1beta1.TxResponse"), response);
    }
  }
}

const SEQUENCE_MISMATCH = /^account sequence mismatch, expected (\d+), got (\d+)/;

/**
 * The account query reads the committed state, which lags the node's check
 * state while the signer's earlier transactions wait for a block; CheckTx then
 * answers "account sequence mismatch, expected N+1, got N". The signature
 * covers the sequence the signer meant, so the StdTx is converted again with
 * the check state's sequence for the first signer still at the stated one.
 * True when a sequence was corrected (the tx is to be sent again).
 */
function correctLaggingSequence(response: ProtoMessage, sequences: Long[]): boolean {
  if (fieldText(response.codespace) !== "sdk" || Number(response.code ?? 0) !== 32) return false;
  const match = SEQUENCE_MISMATCH.exec(fieldText(response.raw_log));
  if (!match) return false;
  const expected = Long.fromString(match[1]!, true);
  const got = Long.fromString(match[2]!, true);
  const index = sequences.findIndex((sequence) => sequence.equals(got));
  if (index === -1 || !expected.greaterThan(got)) return false;
  sequences[index] = expected;
  return true;
}

/** POST /txs/encode: a StdTx → {"tx": base64 of the protobuf TxRaw the node accepts} (sequences filled as for POST /txs). */
export async function encodeStdTx(body: unknown, deps: LegacyDeps): Promise<JsonValue> {
  const input = parseStdTx(deps.aminoParser, unwrapStdTx(body, "", deps), "");
  const bytes = stdTxToTxRaw(deps.codec.root, input, await signerSequences(input, deps));
  return { tx: Buffer.from(bytes).toString("base64") };
}

/** POST /txs/decode: {"tx": base64 of a protobuf TxRaw or of an amino-binary StdTx} → the StdTx (unwrapped). */
export function decodeTx(body: unknown, deps: LegacyDeps): JsonValue {
  const request = objectBody(body);
  if (typeof request.tx !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(request.tx) || request.tx === "") {
    throw new LegacyError(400, "failed to decode JSON payload: tx: expected the base64 of the transaction bytes");
  }
  const bytes = new Uint8Array(Buffer.from(request.tx, "base64"));
  const tx = aminoStdTxBytes(bytes, deps) ? txFromAminoStdTx(deps.aminoBinary, deps.codec.root, aminoStdTxBytes(bytes, deps)!) : protobufTx(bytes, deps);
  return stdTxFromTx(deps.amino, tx) as unknown as JsonValue;
}

/**
 * GET /txs: every query parameter except page and limit becomes an event
 * condition (the table's conditions), joined with AND, oldest first; the
 * SearchTxsResult with each tx as its StdTx. No parameter at all → null.
 */
export async function searchTxs(handler: Action<"search-txs">, query: URLSearchParams, deps: LegacyDeps): Promise<JsonValue> {
  if ([...query.keys()].length === 0) return null;
  const { page, limit } = pageAndLimit(query, handler.paging, deps.pageCaps);
  const conditions: string[] = [];
  for (const key of new Set(query.keys())) {
    if (key === "page" || key === "limit") continue;
    const template = handler.conditions.get(key) ?? handler.conditions.get("*")!;
    conditions.push(fillText(template, { key, value: query.get(key) ?? "" }));
  }
  if (conditions.length === 0) throw new LegacyError(400, "must declare at least one event to search");
  return searchResult(conditions.join(" AND "), page, limit, deps);
}

/**
 * The searches of the table (or the one the select parameter names), the first
 * page of each, as a list of SearchTxsResult; a select value that names none
 * answers the table's status.
 */
export async function searchTxsEach(
  handler: Action<"search-txs-each">,
  path: Record<string, string>,
  query: URLSearchParams,
  deps: LegacyDeps,
): Promise<JsonValue> {
  const words = (query.get(handler.select) ?? "").trim().split(" ").filter(Boolean);
  const chosen = words.length === 0 ? handler.searches : handler.searches.filter((s) => words.includes(s.name)).slice(0, 1);
  if (chosen.length === 0)
    throw new LegacyError(handler.otherwise, `${handler.select} "${words.join(" ")}" names none of ${handler.searches.map((s) => s.name).join(", ")}`);
  const values = Object.fromEntries(Object.entries(path).map(([name, value]) => [`path.${name}`, value]));
  const results: JsonValue[] = [];
  for (const search of chosen) results.push(await searchResult(search.events.map((event) => fillText(event, values)).join(" AND "), 1, handler.limit, deps));
  return results;
}

/** One page of a transaction search as the legacy SearchTxsResult, each tx as its StdTx. */
async function searchResult(conditions: string, page: number, limit: number, deps: LegacyDeps): Promise<JsonValue> {
  const problem = queryProblem(conditions);
  if (problem) throw new LegacyError(400, problem);
  let found;
  try {
    found = await deps.client.txSearch(conditions, page, limit, "asc");
  } catch (err) {
    // the engine refusing the query or the page is the request's fault (the real server answered 500)
    if (err instanceof NodeRpcError) throw new LegacyError(400, err.data ?? err.message);
    throw err;
  }
  const times = new Map<string, string>();
  const txs: ProtoMessage[] = [];
  for (const tx of found.txs) {
    if (!times.has(tx.height))
      times.set(tx.height, fieldText(((await deps.client.block(Number(tx.height))) as { block?: { header?: { time?: string } } }).block?.header?.time));
    txs.push(committedTxResponse(deps.codec, tx, times.get(tx.height)!).txResponse);
  }
  const total = BigInt(found.total_count);
  const result = {
    total_count: Long.fromString(total.toString(), true),
    count: Long.fromNumber(txs.length, true),
    page_number: Long.fromNumber(page, true),
    page_total: Long.fromString(((total + BigInt(limit) - 1n) / BigInt(limit)).toString(), true),
    limit: Long.fromNumber(limit, true),
    txs,
  };
  return deps.amino.render(deps.codec.type("core.base.abci.v1beta1.SearchTxsResult"), result);
}

function objectBody(body: unknown): Record<string, unknown> {
  if (!isJsonObject(body)) throw new LegacyError(400, "failed to decode JSON payload: expected a JSON object", "bad-tx");
  return body;
}

/**
 * A StdTx given as {type: StdTx, value} (the amino form of a registered type)
 * or as its value alone: both are read; {type, value} of another type is refused.
 */
function unwrapStdTx(json: unknown, path: string, deps: LegacyDeps): unknown {
  const name = deps.amino.aminoName("core.tx.v1beta1.Tx");
  if (!json || typeof json !== "object" || !("type" in json)) return json;
  const wrapped = json as Record<string, unknown>;
  if (wrapped.type !== name) throw new AminoJsonError(path ? `${path}.type` : "type", `expected ${name}, got ${JSON.stringify(wrapped.type)}`);
  return wrapped.value;
}

/** Each signer's account sequence (0 for an account the chain does not know yet), by the address of its public key. */
async function signerSequences(input: StdTxInput, deps: LegacyDeps): Promise<Long[]> {
  const call = { methodPath: ACCOUNT.methodPath, requestType: deps.codec.type(ACCOUNT.request), responseType: deps.codec.type(ACCOUNT.response) };
  const out: Long[] = [];
  for (const sig of input.signatures) {
    let address: string;
    try {
      address = encodeBech32Address(deps.bech32Prefix, pubKeyAddress(deps.codec.root, sig.publicKey));
    } catch (err) {
      if (err instanceof UnknownKeyTypeError) throw new LegacyError(400, err.message, "bad-tx");
      throw err;
    }
    try {
      const answer = await invoke(call, { address }, 0, deps);
      out.push(sequenceOf(answer.msg.account as ProtoMessage | undefined, deps));
    } catch (err) {
      if ((err as { code?: number }).code === 5) out.push(Long.UZERO);
      else throw err;
    }
  }
  return out;
}

/** The sequence of an account Any: its BaseAccount, found under base_account / base_vesting_account as accounts nest it. */
function sequenceOf(any: ProtoMessage | undefined, deps: LegacyDeps): Long {
  if (!any?.type_url) return Long.UZERO;
  const type = lookupType(deps.codec.root, fieldText(any.type_url).slice(1));
  let msg = type.decode(any.value as Uint8Array) as unknown as ProtoMessage;
  for (let depth = 0; depth < 4 && msg; depth++) {
    if (msg.sequence !== undefined && msg.address !== undefined) return Long.fromValue(msg.sequence as Long).toUnsigned();
    msg = (msg.base_account ?? msg.base_vesting_account) as ProtoMessage;
  }
  return Long.UZERO;
}

/** The amino StdTx in the bytes (bare, or length-prefixed as MarshalBinaryLengthPrefixed writes it), else undefined. */
function aminoStdTxBytes(bytes: Uint8Array, deps: LegacyDeps): Uint8Array | undefined {
  const prefix = aminoPrefix(deps.amino.aminoName("core.tx.v1beta1.Tx"));
  const starts = (b: Uint8Array) => b.length >= 4 && prefix.every((byte, i) => b[i] === byte);
  if (starts(bytes)) return bytes;
  try {
    const reader = protobuf.Reader.create(bytes);
    const length = reader.uint32();
    const rest = bytes.subarray(reader.pos);
    if (length === rest.length && starts(rest)) return rest;
  } catch {
    return undefined;
  }
  return undefined;
}

function protobufTx(bytes: Uint8Array, deps: LegacyDeps): ProtoMessage {
  try {
    const tx = txFromTxRaw(deps.codec.root, bytes);
    if (((tx.body as ProtoMessage).messages as unknown[] | undefined)?.length === 0 && ((tx.signatures as unknown[]) ?? []).length === 0) {
      throw new Error("no messages and no signatures");
    }
    return tx;
  } catch (err) {
    throw new AminoBinaryError(`the bytes are neither a protobuf TxRaw nor an amino StdTx: ${(err as Error).message}`);
  }
}
