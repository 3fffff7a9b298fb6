import { bech32Prefixes } from "../codec/addresses.js";
import { decodeBech32Address } from "../codec/bech32.js";
import type { ParamSpec } from "../tables/legacyRouteSpec.js";
import { LegacyError } from "./legacyErrors.js";

/**
 * A parameter of format account or validator: a bech32 address of this chain
 * under that prefix, else 400 naming the parameter (the real handlers'
 * AccAddressFromBech32 / ValAddressFromBech32). Other formats pass through.
 */
export function checkedAddress(spec: ParamSpec, value: string | undefined, bech32Prefix: string): string | undefined {
  if (value === undefined || value === "" || (spec.format !== "account" && spec.format !== "validator")) return value;
  const prefixes = bech32Prefixes(bech32Prefix);
  try {
    decodeBech32Address(value, spec.format === "account" ? prefixes.account : prefixes.validatorOperator, spec.name);
  } catch (err) {
    throw new LegacyError(400, (err as Error).message);
  }
  return value;
}
