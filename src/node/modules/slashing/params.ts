import { formatDec } from "../../../codec/decimal.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { KVReader, KVStore } from "../../store/kv.js";
import type { ModuleContext } from "../nodeModule.js";
import { ParamKeyError, aminoDecValue, aminoDurationValue, aminoInt64Value, durationNanos, parseAminoValue } from "../shared/aminoParams.js";
import { DEC_ONE } from "../shared/decMath.js";
import { goDuration } from "../shared/goTime.js";
import { PARAMS_KEY } from "./keys.js";

const FRACTIONS: Record<string, [string, string]> = {
  MinSignedPerWindow: ["min_signed_per_window", "min signed per window"],
  SlashFractionDoubleSign: ["slash_fraction_double_sign", "double sign slash fraction"],
  SlashFractionDowntime: ["slash_fraction_downtime", "downtime slash fraction"],
};

/** Subspace.Update of the slashing params (v0.41 types/params.go validators). */
export async function updateSlashingParam(store: KVStore, key: string, value: string, ctx: ModuleContext): Promise<void> {
  const type = ctx.codec.type("core.slashing.v1beta1.Params");
  const bytes = await store.get(PARAMS_KEY);
  const params = (bytes ? type.decode(bytes) : {}) as unknown as ProtoMessage;
  if (key !== "SignedBlocksWindow" && key !== "DowntimeJailDuration" && !FRACTIONS[key]) throw new ParamKeyError(key);
  const json = parseAminoValue(value);
  if (key === "SignedBlocksWindow") {
    const window = aminoInt64Value(json);
    if (window <= 0n) throw new Error(`signed blocks window must be positive: ${window}`);
    params.signed_blocks_window = window.toString();
  } else if (key === "DowntimeJailDuration") {
    const duration = aminoDurationValue(json);
    if (durationNanos(duration) <= 0n) throw new Error(`downtime jail duration must be positive: ${goDuration(durationNanos(duration))}`);
    params.downtime_jail_duration = duration;
  } else {
    const [field, name] = FRACTIONS[key]!;
    const fraction = aminoDecValue(json);
    if (fraction < 0n) throw new Error(`${name} cannot be negative: ${formatDec(fraction)}`);
    if (fraction > DEC_ONE) throw new Error(`${name} too large: ${formatDec(fraction)}`);
    // a bytes field (customtype Dec) holds the scaled integer's text as its bytes: a string would be read as base64
    params[field] = type.fields[field]?.type === "bytes" ? Buffer.from(fraction.toString()) : fraction.toString();
  }
  store.set(PARAMS_KEY, type.encode(params).finish());
}

export async function readParams(store: KVReader, ctx: ModuleContext): Promise<ProtoMessage> {
  const bytes = await store.get(PARAMS_KEY);
  return bytes ? ctx.codec.type("core.slashing.v1beta1.Params").decode(bytes) : {};
}
