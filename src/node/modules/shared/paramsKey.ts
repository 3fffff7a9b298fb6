import { concatBytes } from "../../store/keyEncoding.js";
import { utf8 } from "../../store/moduleStore.js";

/**
 * Where a module keeps its parameters (as its Params proto) in its own store. The real v0.41 app
 * keeps them in the x/params store instead (`<subspace>/<Key>` → amino JSON, which the `params`
 * raw-store view derives from these); no v0.41 module store has a key starting with 0xFF, so this
 * prefix never meets a real key, and raw `/store/<module>/…` reads leave it out.
 */
const HIDDEN_PARAMS_PREFIX = concatBytes(Uint8Array.of(0xff), utf8("params"));

/** The one key of a module's Params proto. */
export const MODULE_PARAMS_KEY = HIDDEN_PARAMS_PREFIX;

/** A named parameter of a module that keeps several (gov's "depositparams", …). */
export const namedParamsKey = (name: string) => concatBytes(HIDDEN_PARAMS_PREFIX, utf8(`/${name}`));

export function isHiddenParamsKey(key: Uint8Array): boolean {
  return key.length >= HIDDEN_PARAMS_PREFIX.length && HIDDEN_PARAMS_PREFIX.every((b, i) => key[i] === b);
}
