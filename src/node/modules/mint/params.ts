import { formatDec } from "../../../codec/decimal.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { KVStore } from "../../store/kv.js";
import { DENOM_PATTERN } from "../shared/addressField.js";
import type { ModuleContext } from "../nodeModule.js";
import { ParamKeyError, aminoDecValue, aminoStringValue, parseAminoValue } from "../shared/aminoParams.js";
import { MINT_PARAMS_KEY } from "./blocks.js";

const MAX_INFLATION = 2n * 10n ** 17n; // 0.2

/** Subspace.Update of the hub's mint params (params.go validators). */
export async function updateMintParam(store: KVStore, key: string, value: string, ctx: ModuleContext): Promise<void> {
  const type = ctx.codec.type("hubmod.mint.Params");
  const bytes = await store.get(MINT_PARAMS_KEY);
  const params = (bytes ? type.decode(bytes) : {}) as unknown as ProtoMessage;
  switch (key) {
    case "Inflation": {
      const inflation = aminoDecValue(parseAminoValue(value));
      if (inflation > MAX_INFLATION || inflation < 0n) throw new Error(`Mint inflation [${formatDec(inflation)}] should be between [0, 0.2] `);
      params.inflation = inflation.toString();
      break;
    }
    case "MintDenom": {
      const denom = aminoStringValue(parseAminoValue(value));
      if (denom.trim() === "") throw new Error("mint denom cannot be blank");
      if (!DENOM_PATTERN.test(denom)) throw new Error(`invalid denom: ${denom}`);
      params.mint_denom = denom;
      break;
    }
    default:
      throw new ParamKeyError(key);
  }
  store.set(MINT_PARAMS_KEY, type.encode(params).finish());
}
