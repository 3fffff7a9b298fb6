import { formatDec } from "../../../codec/decimal.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { KVStore } from "../../store/kv.js";
import { DENOM_PATTERN } from "../shared/addressField.js";
import type { ModuleContext } from "../nodeModule.js";
import { ParamKeyError, aminoDecValue, aminoDurationValue, durationNanos, parseAminoValue } from "../shared/aminoParams.js";
import { DEC_ONE } from "../shared/decMath.js";
import { goDuration } from "../shared/goTime.js";
import { GOV_PARAMS, paramsKey, type GovParamKey } from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";

/**
 * Subspace.Update of the gov params (v0.41 types/params.go): each key holds a
 * struct; the amino JSON value is decoded over the current struct, then validated.
 */
export async function updateGovParam(store: KVStore, key: string, value: string, ctx: ModuleContext): Promise<void> {
  if (!(key in GOV_PARAMS)) throw new ParamKeyError(key);
  const paramKey = key as GovParamKey;
  const type = ctx.codec.type(GOV_PARAMS[paramKey]);
  const bytes = await store.get(paramsKey(paramKey));
  const params = (bytes ? type.decode(bytes) : {}) as unknown as ProtoMessage;
  const json = parseAminoValue(value);
  if (json === null || typeof json !== "object" || Array.isArray(json)) throw new Error(`invalid JSON object for ${key}: ${value}`);
  const fields = json as Record<string, unknown>;
  if (paramKey === "depositparams") {
    if ("min_deposit" in fields) params.min_deposit = minDeposit(fields.min_deposit);
    if ("max_deposit_period" in fields) params.max_deposit_period = aminoDurationValue(fields.max_deposit_period);
    const period = durationNanos((params.max_deposit_period ?? { seconds: 0, nanos: 0 }) as { seconds: string; nanos: number });
    if (period <= 0n) throw new Error(`maximum deposit period must be positive: ${period}`);
  } else if (paramKey === "votingparams") {
    if ("voting_period" in fields) params.voting_period = aminoDurationValue(fields.voting_period);
    const period = durationNanos((params.voting_period ?? { seconds: 0, nanos: 0 }) as { seconds: string; nanos: number });
    if (period <= 0n) throw new Error(`voting period must be positive: ${goDuration(period)}`);
  } else {
    // bytes fields (customtype Dec): the wire bytes are the scaled integer's text, as a Buffer (a string would be read as base64)
    for (const field of ["quorum", "threshold", "veto_threshold"]) if (field in fields) params[field] = Buffer.from(aminoDecValue(fields[field]).toString());
    validateTally(params);
  }
  store.set(paramsKey(paramKey), type.encode(params).finish());
}

function minDeposit(value: unknown): Array<{ denom: string; amount: string }> {
  if (!Array.isArray(value)) throw new Error(`invalid minimum deposit: ${JSON.stringify(value)}`);
  const coins = value.map((c) => ({ denom: fieldText((c as { denom?: unknown }).denom), amount: fieldText((c as { amount?: unknown }).amount, "0") }));
  const text = coins.map((c) => `${c.amount}${c.denom}`).join(",");
  const valid = coins.every(
    (c, i) => DENOM_PATTERN.test(c.denom) && /^\d+$/.test(c.amount) && BigInt(c.amount) > 0n && (i === 0 || coins[i - 1]!.denom < c.denom),
  );
  if (!valid) throw new Error(`invalid minimum deposit: ${text}`);
  return coins;
}

function validateTally(params: ProtoMessage): void {
  const dec = (field: string) => BigInt(fieldText(params[field], "0"));
  const text = () =>
    `quorum: "${formatDec(dec("quorum"))}"\nthreshold: "${formatDec(dec("threshold"))}"\nveto_threshold: "${formatDec(dec("veto_threshold"))}"\n`;
  if (dec("quorum") < 0n) throw new Error(`quorom cannot be negative: ${formatDec(dec("quorum"))}`);
  if (dec("quorum") > DEC_ONE) throw new Error(`quorom too large: ${text()}`);
  if (dec("threshold") <= 0n) throw new Error(`vote threshold must be positive: ${formatDec(dec("threshold"))}`);
  if (dec("threshold") > DEC_ONE) throw new Error(`vote threshold too large: ${text()}`);
  if (dec("veto_threshold") <= 0n) throw new Error(`veto threshold must be positive: ${formatDec(dec("threshold"))}`);
  if (dec("veto_threshold") > DEC_ONE) throw new Error(`veto threshold too large: ${text()}`);
}
