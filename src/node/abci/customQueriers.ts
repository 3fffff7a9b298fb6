import type protobuf from "protobufjs";
import Long from "long";
import type { AbciQueryResponse } from "../../client/chainClient.js";
import type { Codec } from "../../codec/codec.js";
import type { AminoJsonRenderer } from "../../codec/amino/aminoJson.js";
import { renderAminoField } from "../../codec/amino/aminoResult.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { names } from "../../names/activeNames.js";
import { abciError, SdkError } from "./abciResult.js";

/**
 * The legacy queriers the real modules register (`/custom/<route>/<path>`), each answered by the
 * module's Query method: `result` is the field of its answer the querier returns. The routes are
 * the real QuerierRoutes (x/auth's is "acc").
 */
const CUSTOM_QUERIERS: Record<string, { method: string; result: string }> = {
  "acc/account": { method: "core.auth.v1beta1.Query/Account", result: "account" },
  "bank/balance": { method: "core.bank.v1beta1.Query/Balance", result: "balance" },
  "bank/all_balances": { method: "core.bank.v1beta1.Query/AllBalances", result: "balances" },
  "staking/validators": { method: "core.staking.v1beta1.Query/Validators", result: "validators" },
  "staking/validator": { method: "core.staking.v1beta1.Query/Validator", result: "validator" },
  "staking/pool": { method: "core.staking.v1beta1.Query/Pool", result: "pool" },
  "staking/parameters": { method: "core.staking.v1beta1.Query/Params", result: "params" },
  "slashing/parameters": { method: "core.slashing.v1beta1.Query/Params", result: "params" },
  "slashing/signingInfo": { method: "core.slashing.v1beta1.Query/SigningInfo", result: "val_signing_info" },
  "slashing/signingInfos": { method: "core.slashing.v1beta1.Query/SigningInfos", result: "info" },
  "gov/proposal": { method: "core.gov.v1beta1.Query/Proposal", result: "proposal" },
  "service/definition": { method: "extmod.service.Query/Definition", result: "service_definition" },
  "service/binding": { method: "extmod.service.Query/Binding", result: "service_binding" },
  "service/bindings": { method: "extmod.service.Query/Bindings", result: "service_bindings" },
  "service/request": { method: "extmod.service.Query/Request", result: "request" },
  "service/requests": { method: "extmod.service.Query/Requests", result: "requests" },
  "service/requests_by_ctx": { method: "extmod.service.Query/RequestsByReqCtx", result: "requests" },
  "service/context": { method: "extmod.service.Query/RequestContext", result: "request_context" },
  "service/response": { method: "extmod.service.Query/Response", result: "response" },
  "service/responses": { method: "extmod.service.Query/Responses", result: "responses" },
  "oracle/feed": { method: "extmod.oracle.Query/Feed", result: "feed" },
  "oracle/feeds": { method: "extmod.oracle.Query/Feeds", result: "feeds" },
  "oracle/feedValue": { method: "extmod.oracle.Query/FeedValue", result: "feed_values" },
  "random/random": { method: "extmod.random.Query/Random", result: "random" },
  "random/queue": { method: "extmod.random.Query/RandomRequestQueue", result: "requests" },
};

/** What a custom querier needs of the node: its gRPC query path's answer at a height (bytes in, bytes or a failure out). */
export type QueryCall = (path: string, data: Uint8Array, height: number) => Promise<AbciQueryResponse>;

/**
 * handleQueryCustom of the real baseapp: the querier of `route`, given the rest of the path and the
 * request's amino JSON parameters; answers its result in amino JSON, indented as MarshalJSONIndent
 * writes it. Parameter names match request fields whatever their case and underscores
 * ("ServiceName", "service_name"); `page` and `limit` become the pagination.
 */
export async function answerCustomQuery(
  path: string[],
  data: Uint8Array,
  height: number,
  deps: { codec: Codec; amino: AminoJsonRenderer; call: QueryCall },
): Promise<AbciQueryResponse> {
  const route = path[0] ?? "";
  const querier = CUSTOM_QUERIERS[`${route}/${path[1] ?? ""}`];
  if (!querier) {
    if (!Object.keys(CUSTOM_QUERIERS).some((key) => key.startsWith(`${route}/`)))
      return abciError(SdkError.unknownRequest, `no custom querier found for route ${route}`, 0);
    return abciError(SdkError.unknownRequest, `unknown ${route} query endpoint: ${path[1] ?? ""}`, height);
  }
  const [service, methodName] = querier.method.split("/") as [string, string];
  const method = deps.codec.root.lookupService("." + names().protoName(service)).methods[methodName]!;
  method.resolve();
  const requestType = method.resolvedRequestType!;
  const responseType = method.resolvedResponseType!;
  let request: ProtoMessage;
  try {
    request = requestFromParams(requestType, data);
  } catch (err) {
    return abciError(SdkError.jsonUnmarshal, (err as Error).message, height);
  }
  const answer = await deps.call(`/${names().protoName(service)}/${methodName}`, requestType.encode(requestType.fromObject(request)).finish(), height);
  if (answer.code !== 0) return { ...answer, log: answer.log.replace(/^rpc error: code = \w+ desc = /, "") };
  const response = responseType.decode(answer.value) as unknown as ProtoMessage;
  const result = renderAminoField(deps.amino, responseType, response, [responseType.fields[querier.result]!], true);
  return { code: 0, codespace: "", log: "", value: new TextEncoder().encode(indentedGoJson(result ?? null)), height };
}

const normalized = (name: string) => name.replace(/_/g, "").toLowerCase();

function requestFromParams(type: protobuf.Type, data: Uint8Array): ProtoMessage {
  if (data.length === 0) return {};
  const params = JSON.parse(new TextDecoder().decode(data)) as unknown;
  if (!params || typeof params !== "object" || Array.isArray(params)) throw new Error("expected a JSON object of the querier's parameters");
  const fields = new Map(type.fieldsArray.map((field) => [normalized(field.name), field.name]));
  const request: ProtoMessage = {};
  let page = 1;
  let limit: number | undefined;
  for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
    const key = normalized(name);
    if (key === "page") page = Math.max(1, Number(value) || 1);
    else if (key === "limit") limit = Number(value) || undefined;
    else if (fields.has(key)) request[fields.get(key)!] = value;
  }
  if (limit !== undefined && fields.has("pagination")) {
    request.pagination = { offset: Long.fromNumber((page - 1) * limit, true), limit: Long.fromNumber(limit, true) };
  }
  return request;
}

/** json.MarshalIndent with two spaces, with Go's escapes of <, > and &. */
function indentedGoJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}
