import { formatDec } from "../../../codec/decimal.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { KVStore } from "../../store/kv.js";
import type { ModuleContext } from "../nodeModule.js";
import { ParamKeyError, aminoBoolValue, aminoDecValue, parseAminoValue } from "../shared/aminoParams.js";
import { DEC_ONE } from "../shared/decMath.js";
import { PARAMS_KEY } from "./keys.js";

const FRACTIONS: Record<string, [string, string]> = {
  communitytax: ["community_tax", "community tax"],
  baseproposerreward: ["base_proposer_reward", "base proposer reward"],
  bonusproposerreward: ["bonus_proposer_reward", "bonus proposer reward"],
};

/** Subspace.Update of the distribution params (v0.41 types/params.go validators). */
export async function updateDistributionParam(store: KVStore, key: string, value: string, ctx: ModuleContext): Promise<void> {
  const type = ctx.codec.type("core.distribution.v1beta1.Params");
  const bytes = await store.get(PARAMS_KEY);
  const params = (bytes ? type.decode(bytes) : {}) as unknown as ProtoMessage;
  if (key === "withdrawaddrenabled") {
    params.withdraw_addr_enabled = aminoBoolValue(parseAminoValue(value));
  } else if (FRACTIONS[key]) {
    const [field, name] = FRACTIONS[key];
    const fraction = aminoDecValue(parseAminoValue(value));
    if (fraction < 0n) throw new Error(`${name} must be positive: ${formatDec(fraction)}`);
    if (fraction > DEC_ONE) throw new Error(`${name} too large: ${formatDec(fraction)}`);
    params[field] = fraction.toString();
  } else {
    throw new ParamKeyError(key);
  }
  store.set(PARAMS_KEY, type.encode(params).finish());
}
