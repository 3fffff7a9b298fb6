import { bech32Prefixes } from "../../../codec/addresses.js";
import { decodeBech32Address } from "../../../codec/bech32.js";
import { invalidArgument } from "../../abci/queryError.js";
import type { ModuleContext } from "../nodeModule.js";
import { fieldText } from "../../../codec/fieldText.js";

/** A bech32 account address from a request field; a bad one is InvalidArgument naming the field. */
export function accountAddressParam(value: unknown, field: string, ctx: ModuleContext): Uint8Array {
  try {
    return decodeBech32Address(fieldText(value), ctx.chain.bech32Prefix, field);
  } catch (err) {
    throw invalidArgument((err as Error).message);
  }
}

/** A bech32 validator operator address (<prefix>valoper...) from a request field. */
export function validatorAddressParam(value: unknown, field: string, ctx: ModuleContext): Uint8Array {
  return bech32Param(value, field, bech32Prefixes(ctx.chain.bech32Prefix).validatorOperator);
}

/** A bech32 consensus address (<prefix>valcons...) from a request field. */
export function consensusAddressParam(value: unknown, field: string, ctx: ModuleContext): Uint8Array {
  return bech32Param(value, field, bech32Prefixes(ctx.chain.bech32Prefix).consensus);
}

function bech32Param(value: unknown, field: string, prefix: string): Uint8Array {
  try {
    return decodeBech32Address(fieldText(value), prefix, field);
  } catch (err) {
    throw invalidArgument((err as Error).message);
  }
}

/** sdk.ValidateDenom */
export const DENOM_PATTERN = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;

export function denomParam(value: unknown, field = "denom"): string {
  const denom = fieldText(value);
  if (!DENOM_PATTERN.test(denom))
    throw invalidArgument(
      denom === "" ? `${field} cannot be empty` : `invalid ${field} "${denom}": a denom is 3-128 characters [a-zA-Z0-9/:._-] starting with a letter`,
    );
  return denom;
}
