import protobuf from "protobufjs";
import Long from "long";
import { JsonInputError } from "../codec/json/parseProto3.js";
import type { JsonValue, ProtoMessage } from "../codec/json/renderProto3.js";
import { txFromTxRaw } from "../codec/amino/stdTx.js";
import { typeUrlOf } from "../codec/typeRegistry.js";
import type { MethodCall, Paging, QueryHandler, SearchCall } from "../tables/legacyRouteSpec.js";
import { fillText } from "../tables/legacyTemplates.js";
import { evaluate, type Scope } from "./evaluate.js";
import { invoke, type Answer, type LegacyDeps } from "./legacyDeps.js";
import { LegacyError } from "./legacyErrors.js";
import { pageAndLimit } from "./legacyParams.js";

export interface QueryInput {
  scope: Scope;
  query: URLSearchParams;
  height: number;
  aminoWrap: boolean;
}

/** A query route's answer: the result in amino JSON (undefined when empty) and the height it was read at. */
export async function answerQuery(handler: QueryHandler, input: QueryInput, deps: LegacyDeps): Promise<{ result: JsonValue | undefined; height: number }> {
  const answers = new Map<string, Answer>();
  const paging = handler.paging ? pageAndLimit(input.query, handler.paging) : undefined;
  for (const call of handler.calls) {
    if (call.kind === "search") {
      answers.set(call.name, await findMsg(call, input.scope, deps));
      continue;
    }
    const request = buildRequest(call, input.scope, deps);
    if (paging && handler.paging!.of === "request") request.pagination = { offset: Long.fromNumber((paging.page - 1) * paging.limit, true), limit: Long.fromNumber(paging.limit, true) };
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
  if (paging && handler.paging!.of === "result" && Array.isArray(result)) result = pageOf(result, paging, handler.paging!);
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
  return wrap ? deps.amino.renderTop(type, msg) : deps.amino.render(type, msg);
}

/** A field of the answer as the result: a list, a scalar, or a message (wrapped when of a registered type); absent → undefined. */
function selectField(answer: Answer, path: protobuf.Field[], wrap: boolean, deps: LegacyDeps): JsonValue | undefined {
  let owner = answer.type;
  let msg: ProtoMessage | undefined = answer.msg;
  for (const [i, field] of path.entries()) {
    const value: unknown = msg?.[field.name];
    const last = i === path.length - 1;
    if (field.repeated || field instanceof protobuf.MapField) return deps.amino.renderField(owner, field, value);
    if (field.resolvedType instanceof protobuf.Type) {
      if (value === null || value === undefined) return undefined;
      if (last) return renderTop(field.resolvedType, value as ProtoMessage, wrap, deps);
      owner = field.resolvedType;
      msg = value as ProtoMessage;
      continue;
    }
    if (!last) return undefined;
    return deps.amino.renderField(owner, field, value);
  }
  return undefined;
}

function pageOf(list: JsonValue[], paging: { page: number; limit: number }, _spec: Paging): JsonValue[] {
  const start = (paging.page - 1) * paging.limit;
  return list.slice(start, start + paging.limit);
}

/** The first Msg of the call's type in the transactions that match its events (oldest first); none → not found. */
async function findMsg(call: SearchCall, scope: Scope, deps: LegacyDeps): Promise<Answer> {
  const values: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(scope.path)) values[`path.${name}`] = value;
  for (const [name, value] of Object.entries(scope.query)) values[`query.${name}`] = value;
  const query = call.events.map((event) => fillText(event, values)).join(" AND ");
  const found = await deps.client.txSearch(query, 1, call.limit, "asc");
  const typeUrl = typeUrlOf(call.msgType);
  for (const tx of found.txs) {
    const decoded = txFromTxRaw(deps.codec.root, new Uint8Array(Buffer.from(tx.tx, "base64")));
    const any = (((decoded.body as ProtoMessage).messages ?? []) as ProtoMessage[]).find((m) => m.type_url === typeUrl);
    if (any) return { type: call.msgType, msg: call.msgType.decode(any.value as Uint8Array) as unknown as ProtoMessage, height: Number(tx.height) };
  }
  throw new LegacyError(404, `no transaction matching ${query} has a ${call.msgType.fullName.slice(1)}`, "not-found");
}
