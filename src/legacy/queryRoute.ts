import protobuf from "protobufjs";
import Long from "long";
import { JsonInputError } from "../codec/json/parseProto3.js";
import type { JsonValue, ProtoMessage } from "../codec/json/renderProto3.js";
import { txFromTxRaw } from "../codec/amino/stdTx.js";
import { renderAminoField, renderAminoTop } from "../codec/amino/aminoResult.js";
import { typeUrlOf } from "../codec/typeRegistry.js";
import type { MethodCall, Paging, QueryHandler, SearchCall } from "../tables/legacyRouteSpec.js";
import { fillText } from "../tables/legacyTemplates.js";
import { evaluate, type Scope } from "./evaluate.js";
import { invoke, type Answer, type LegacyDeps } from "./legacyDeps.js";
import { LegacyError } from "./legacyErrors.js";
import { pageAndLimit, pageOffset } from "./legacyParams.js";
import { fieldText } from "../codec/fieldText.js";

export interface QueryInput {
  scope: Scope;
  query: URLSearchParams;
  height: number;
  aminoWrap: boolean;
}

type QueryAnswer = { result: JsonValue | undefined; height: number };

/**
 * A query route's answer: the result in amino JSON (undefined when empty) and
 * the height it was read at; from the route's fallback search when the state
 * has nothing.
 */
export async function answerQuery(handler: QueryHandler, input: QueryInput, deps: LegacyDeps): Promise<QueryAnswer> {
  const fallback = handler.fallback;
  if (!fallback) return answerCalls(handler, input, deps);
  let readAt = 0; // the height the state was read at, when it answered
  try {
    const answered = await answerCalls(handler, input, deps);
    if (!isEmpty(answered.result)) return answered;
    readAt = answered.height;
  } catch (err) {
    if (!fallback.onError?.test((err as Error).message)) throw err;
  }
  const fromTransactions = await answerFromTransactions(fallback.search, handler.paging, input, deps);
  return { result: fromTransactions.result, height: Math.max(readAt, fromTransactions.height) };
}

const isEmpty = (result: JsonValue | undefined) => result === undefined || result === null || (Array.isArray(result) && result.length === 0);

async function answerFromTransactions(search: SearchCall, paging: Paging | undefined, input: QueryInput, deps: LegacyDeps): Promise<QueryAnswer> {
  const found = await searchMsgs(search, input.scope, deps);
  const height = Math.max(0, ...found.map((a) => a.height));
  if (!search.all) {
    const first = found[0];
    return { result: first ? renderTop(first.type, first.msg, input.aminoWrap, deps) : undefined, height };
  }
  const list = found.map((a) => deps.amino.render(a.type, a.msg));
  return { result: paging ? pageOf(list, pageAndLimit(input.query, paging, deps.pageCaps)) : list, height };
}

async function answerCalls(handler: QueryHandler, input: QueryInput, deps: LegacyDeps): Promise<QueryAnswer> {
  const answers = new Map<string, Answer>();
  const paging = handler.paging ? pageAndLimit(input.query, handler.paging, deps.pageCaps) : undefined;
  for (const call of handler.calls) {
    if (call.kind === "search") {
      answers.set(call.name, await findMsg(call, input.scope, deps));
      continue;
    }
    const request = buildRequest(call, input.scope, deps);
    if (paging && handler.paging!.of === "request") request.pagination = { offset: pageOffset(paging), limit: Long.fromNumber(paging.limit, true) };
    answers.set(call.name, await invoke(call, request, input.height, deps));
  }
  const height = Math.max(0, ...[...answers.values()].map((a) => a.height));
  let result: JsonValue | undefined;
  const spec = handler.result;
  if (spec.kind === "template") {
    result = evaluate(spec.template, { ...input.scope, calls: answers }) as JsonValue;
  } else {
    const answer = answers.get(spec.call.name)!;
    result = spec.kind === "whole" ? renderTop(answer.type, answer.msg, input.aminoWrap, deps) : selectField(answer, spec.path, input.aminoWrap, deps);
  }
  if (paging && handler.paging!.of === "result" && Array.isArray(result)) result = pageOf(result, paging);
  return { result, height };
}

/** The request message of a call: each binding's value parsed into its field (a value that does not fit is a 400 naming it). */
export function buildRequest(call: MethodCall, scope: Scope, deps: LegacyDeps): ProtoMessage {
  const request: ProtoMessage = {};
  for (const binding of call.request) {
    const value = evaluate(binding.template, scope);
    if (value === undefined) continue;
    const field = binding.fieldPath.at(-1)!;
    const name = binding.template.kind === "ref" ? binding.template.path.join(".") : binding.fieldPath.map((f) => f.name).join(".");
    let parsed: unknown;
    try {
      parsed = deps.codec.parser.parseField(field, field.repeated && !Array.isArray(value) ? [value] : value, name);
    } catch (err) {
      if (err instanceof JsonInputError) throw new LegacyError(400, err.message);
      throw err;
    }
    let target = request;
    for (const f of binding.fieldPath.slice(0, -1)) target = (target[f.name] ??= {}) as ProtoMessage;
    target[field.name] = parsed;
  }
  return request;
}

function renderTop(type: protobuf.Type, msg: ProtoMessage, wrap: boolean, deps: LegacyDeps): JsonValue {
  return renderAminoTop(deps.amino, type, msg, wrap);
}

function selectField(answer: Answer, path: protobuf.Field[], wrap: boolean, deps: LegacyDeps): JsonValue | undefined {
  return renderAminoField(deps.amino, answer.type, answer.msg, path, wrap);
}

function pageOf(list: JsonValue[], paging: { page: number; limit: number }): JsonValue[] {
  const start = (paging.page - 1) * paging.limit;
  return list.slice(start, start + paging.limit);
}

/** The first Msg the search finds; none → not found. */
async function findMsg(call: SearchCall, scope: Scope, deps: LegacyDeps): Promise<Answer> {
  const [first] = await searchMsgs({ ...call, all: false }, scope, deps);
  if (first) return first;
  throw new LegacyError(404, `no transaction matching ${searchQuery(call, scope)} has a ${call.msgType.fullName.slice(1)}`, "not-found");
}

/** The search's conditions with the request's values filled in, joined with AND. */
function searchQuery(call: SearchCall, scope: Scope): string {
  return call.events.map((event) => fillText(event, placeholderValues(scope))).join(" AND ");
}

function placeholderValues(scope: Scope): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(scope.path)) values[`path.${name}`] = value;
  for (const [name, value] of Object.entries(scope.query)) values[`query.${name}`] = value;
  return values;
}

/**
 * The Msgs of the call's type (and match) in the transactions that match its
 * events, oldest first: the first only, or with `all` every one of every page.
 */
async function searchMsgs(call: SearchCall, scope: Scope, deps: LegacyDeps): Promise<Answer[]> {
  const query = searchQuery(call, scope);
  const wanted = [...call.match].map(([field, text]) => [field, fillText(text, placeholderValues(scope))] as const);
  const typeUrl = typeUrlOf(call.msgType);
  const found: Answer[] = [];
  for (let page = 1; ; page++) {
    const result = await deps.client.txSearch(query, page, call.limit, "asc");
    for (const tx of result.txs) {
      const decoded = txFromTxRaw(deps.codec.root, new Uint8Array(Buffer.from(tx.tx, "base64")));
      for (const any of ((decoded.body as ProtoMessage).messages ?? []) as ProtoMessage[]) {
        if (any.type_url !== typeUrl) continue;
        const msg = call.msgType.decode(any.value as Uint8Array) as unknown as ProtoMessage;
        if (!wanted.every(([field, value]) => fieldText(msg[field]) === value)) continue;
        const type = call.as ?? call.msgType;
        found.push({ type, msg: call.as ? call.as.decode(any.value as Uint8Array) : msg, height: Number(tx.height) });
        if (!call.all) return found;
      }
    }
    if (!call.all || page * call.limit >= Number(result.total_count)) return found;
  }
}
