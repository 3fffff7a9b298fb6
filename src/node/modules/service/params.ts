import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { KVReader } from "../../store/kv.js";
import type { ExecContext, ModuleContext, ParamValues } from "../nodeModule.js";
import { fieldText } from "../../../codec/fieldText.js";
import { aminoDec, aminoJson, aminoString, aminoUint64 } from "../shared/aminoParams.js";
import { big } from "../shared/genesisObjectChecks.js";
import { PARAMS_KEY } from "./keys.js";

export async function readServiceParams(store: KVReader, ctx: ModuleContext): Promise<ProtoMessage> {
  const bytes = await store.get(PARAMS_KEY);
  return bytes ? ctx.codec.type("extmod.service.Params").decode(bytes) : {};
}

/** The denom deposits, fee caps and prices are counted in. */
export async function baseDenom(ctx: ExecContext): Promise<string> {
  return fieldText((await readServiceParams(ctx.storeOf("service"), ctx)).base_denom);
}

/** The most blocks a request may wait for its responses. */
export async function maxRequestTimeout(ctx: ExecContext): Promise<number> {
  return Number(fieldText((await readServiceParams(ctx.storeOf("service"), ctx)).max_request_timeout, "0"));
}

/** The params of the x/params subspace "service", under the real keys (types/params.go), as amino JSON. */
export async function serviceParamValues(store: KVReader, ctx: ModuleContext): Promise<ParamValues> {
  const params = await readServiceParams(store, ctx);
  const nanos = (duration: unknown) => {
    const d = (duration ?? {}) as ProtoMessage;
    return (big(d.seconds) * 1_000_000_000n + BigInt(Number(d.nanos ?? 0))).toString(); // a Go time.Duration
  };
  return {
    MaxRequestTimeout: aminoUint64(params.max_request_timeout),
    MinDepositMultiple: aminoUint64(params.min_deposit_multiple),
    MinDeposit: aminoJson(((params.min_deposit ?? []) as ProtoMessage[]).map((c) => ({ denom: String(c.denom), amount: String(c.amount) }))),
    ServiceFeeTax: aminoDec(params.service_fee_tax),
    SlashFraction: aminoDec(params.slash_fraction),
    ComplaintRetrospect: aminoUint64(nanos(params.complaint_retrospect)),
    ArbitrationTimeLimit: aminoUint64(nanos(params.arbitration_time_limit)),
    TxSizeLimit: aminoUint64(params.tx_size_limit),
    BaseDenom: aminoString(params.base_denom),
  };
}
