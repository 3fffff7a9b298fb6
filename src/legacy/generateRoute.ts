import { isJsonObject } from "../codec/json/jsonNumberForms.js";
import protobuf from "protobufjs";
import Long from "long";
import { decodeBech32Address } from "../codec/bech32.js";
import type { JsonValue, ProtoMessage } from "../codec/json/renderProto3.js";
import type { GenerateHandler } from "../tables/legacyRouteSpec.js";
import { fillText } from "../tables/legacyTemplates.js";
import { feesFor, gasAdjustment, gasSetting, payloadError, readBaseReq, validateBaseReq, type BaseReq } from "./baseReq.js";
import { addressBytes, evaluate, type Scope } from "./evaluate.js";
import { invoke, type LegacyDeps } from "./legacyDeps.js";
import { LegacyError } from "./legacyErrors.js";
import { GatewayError, GrpcCode } from "../http/grpcStatus.js";
import { buildRequest } from "./queryRoute.js";
import { AminoJsonError } from "../codec/amino/aminoJsonParser.js";
import { SIGN_MODE_LEGACY_AMINO_JSON } from "../codec/amino/stdTx.js";
import { fieldText } from "../codec/fieldText.js";

const SIMULATE = {
  methodPath: "/core.tx.v1beta1.Service/Simulate",
  request: "core.tx.v1beta1.SimulateRequest",
  response: "core.tx.v1beta1.SimulateResponse",
};

/**
 * A generate-only POST: reads base_req and the route's fields, checks them as
 * the real handler does, builds the route's Msgs, and answers the unsigned
 * StdTx {"type": StdTx, "value": {msg, fee, signatures: null, memo, timeout_height}},
 * or {"gas_estimate": "..."} when base_req.simulate is true.
 */
export async function generateTx(handler: GenerateHandler, body: unknown, path: Record<string, string>, deps: LegacyDeps): Promise<JsonValue> {
  if (!isJsonObject(body)) throw new LegacyError(400, "failed to decode JSON payload: expected a JSON object with base_req");
  const fields = body;
  const baseReq = readBaseReq(fields.base_req);
  validateBaseReq(baseReq, deps.bech32Prefix);
  const scope: Scope = { path, query: {}, body: fields, baseReq: baseReqJson(baseReq, fields.base_req), deps };

  for (const check of handler.checks) {
    const ok =
      check.kind === "same_address"
        ? (() => {
            const a = addressBytes(evaluate(check.a, scope));
            return a !== undefined && a === addressBytes(evaluate(check.b, scope));
          })()
        : check.pattern.test(fieldText(evaluate(check.value, scope)));
    if (!ok) throw new LegacyError(check.status, fillText(check.error, valuesOf(scope)));
  }

  const msgs: ProtoMessage[] = [];
  for (const spec of handler.msgs) {
    const items = spec.forEach ? await forEachItems(spec.forEach, scope, deps) : [undefined];
    for (const item of items) {
      const value = evaluate(spec.value, { ...scope, item });
      try {
        msgs.push(deps.aminoParser.parseAny({ type: spec.aminoType, value }, "msg"));
      } catch (err) {
        if (err instanceof AminoJsonError) throw payloadError(err.path.replace(/^msg\.value\.?/, "") || "msg", err.detail);
        throw err;
      }
    }
  }
  if (msgs.length === 0) throw new LegacyError(400, "must contain at least one message");

  const gas = gasSetting(baseReq.gas);
  let gasLimit = gas.limit;
  if (baseReq.simulate || gas.simulate) {
    const adjustment = gasAdjustment(baseReq.gasAdjustment);
    const used = await simulatedGas(msgs, baseReq, deps);
    gasLimit = BigInt(Math.floor(adjustment * Number(used)));
    if (baseReq.simulate) return { gas_estimate: gasLimit.toString() };
  }

  const Coin = deps.codec.type("core.base.v1beta1.Coin");
  const stdTxName = deps.amino.aminoName("core.tx.v1beta1.Tx");
  return {
    type: stdTxName,
    value: {
      msg: msgs.map((any) => deps.amino.renderAny(any)),
      fee: {
        amount: feesFor(baseReq, gasLimit).map((c) => deps.amino.render(Coin, { denom: c.denom, amount: c.amount.toString() })),
        gas: gasLimit.toString(),
      },
      signatures: null,
      memo: baseReq.memo,
      timeout_height: baseReq.timeoutHeight,
    },
  };
}

/** base_req as the templates read it: the request's own JSON, trimmed strings where the handler trims them. */
function baseReqJson(req: BaseReq, raw: unknown): Record<string, unknown> {
  return { ...((raw ?? {}) as Record<string, unknown>), from: req.from, memo: req.memo, chain_id: req.chainId };
}

function valuesOf(scope: Scope): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(scope.path)) values[`path.${name}`] = value;
  values["base_req.from"] = fieldText(scope.baseReq?.from);
  return values;
}

async function forEachItems(forEach: NonNullable<GenerateHandler["msgs"][number]["forEach"]>, scope: Scope, deps: LegacyDeps): Promise<unknown[]> {
  const answer = await invoke(forEach.call, buildRequest(forEach.call, scope, deps), 0, deps);
  let value: unknown = answer.msg;
  for (const field of forEach.items) value = (value as ProtoMessage | undefined)?.[field.name];
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const last = forEach.items.at(-1)!;
  // messages become their amino JSON, so templates read their fields by JSON name
  return last.resolvedType instanceof protobuf.Type
    ? items.map((m): unknown => deps.amino.render(last.resolvedType as protobuf.Type, m as ProtoMessage))
    : (items as unknown[]);
}

/**
 * The gas the node spends on the Msgs (CalculateGas): a tx signed by `from`
 * with an empty signature, simulated at the latest height.
 */
async function simulatedGas(msgs: ProtoMessage[], req: BaseReq, deps: LegacyDeps): Promise<bigint> {
  const TxBody = deps.codec.type("core.tx.v1beta1.TxBody");
  const AuthInfo = deps.codec.type("core.tx.v1beta1.AuthInfo");
  const TxRaw = deps.codec.type("core.tx.v1beta1.TxRaw");
  decodeBech32Address(req.from, deps.bech32Prefix, "from");
  const body: ProtoMessage = { messages: msgs, memo: req.memo };
  if (req.timeoutHeight !== "0") body.timeout_height = Long.fromString(req.timeoutHeight, true);
  const authInfo = {
    // LEGACY_AMINO_JSON, as the StdTx will be signed: the node then checks the sequence through the signature only
    signer_infos: [{ mode_info: { single: { mode: SIGN_MODE_LEGACY_AMINO_JSON } }, sequence: Long.fromString(req.sequence, true) }],
    fee: { amount: req.fees.map((c) => ({ denom: c.denom, amount: c.amount.toString() })) },
  };
  const txBytes = TxRaw.encode({
    body_bytes: TxBody.encode(TxBody.fromObject(body)).finish(),
    auth_info_bytes: AuthInfo.encode(AuthInfo.fromObject(authInfo)).finish(),
    signatures: [new Uint8Array()],
  }).finish();
  const call = { methodPath: SIMULATE.methodPath, requestType: deps.codec.type(SIMULATE.request), responseType: deps.codec.type(SIMULATE.response) };
  let answer;
  try {
    answer = await invoke(call, { tx_bytes: txBytes }, 0, deps);
  } catch (err) {
    // the transaction would fail: the request's fault (the real server answered 500)
    if (err instanceof GatewayError && err.code !== GrpcCode.Unavailable) throw new LegacyError(400, `simulation failed: ${err.message}`);
    throw err;
  }
  const gasInfo = (answer.msg.gas_info ?? {}) as ProtoMessage;
  return BigInt(fieldText(gasInfo.gas_used, "0"));
}
