import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { KVStore } from "../../store/kv.js";
import { DENOM_PATTERN } from "../shared/addressField.js";
import type { ModuleContext } from "../nodeModule.js";
import { ParamKeyError, aminoDurationValue, aminoStringValue, aminoUint32Value, durationNanos, parseAminoValue } from "../shared/aminoParams.js";
import { PARAMS_KEY } from "./keys.js";

/** Subspace.Update of the staking params (v0.41 types/params.go validators). */
export async function updateStakingParam(store: KVStore, key: string, value: string, ctx: ModuleContext): Promise<void> {
  const type = ctx.codec.type("core.staking.v1beta1.Params");
  const bytes = await store.get(PARAMS_KEY);
  const params = (bytes ? type.decode(bytes) : {}) as unknown as ProtoMessage;
  const json = () => parseAminoValue(value);
  switch (key) {
    case "UnbondingTime": {
      const duration = aminoDurationValue(json());
      if (durationNanos(duration) <= 0n) throw new Error(`unbonding time must be positive: ${durationNanos(duration)}`);
      params.unbonding_time = duration;
      break;
    }
    case "MaxValidators":
      params.max_validators = positive(aminoUint32Value(json()), "max validators must be positive");
      break;
    case "MaxEntries":
      params.max_entries = positive(aminoUint32Value(json()), "max entries must be positive");
      break;
    case "HistoricalEntries":
      params.historical_entries = aminoUint32Value(json());
      break;
    case "BondDenom": {
      const denom = aminoStringValue(json());
      if (denom.trim() === "") throw new Error("bond denom cannot be blank");
      if (!DENOM_PATTERN.test(denom)) throw new Error(`invalid denom: ${denom}`);
      params.bond_denom = denom;
      break;
    }
    default:
      throw new ParamKeyError(key);
  }
  store.set(PARAMS_KEY, type.encode(params).finish());
}

function positive(value: number, message: string): number {
  if (value === 0) throw new Error(message);
  return value;
}
