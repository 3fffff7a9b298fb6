import { bech32 } from "bech32";
import { bech32Prefixes } from "../../../codec/addresses.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { ModuleContext } from "../nodeModule.js";
import { plainError, panicError } from "./errorTable.js";
import { sdkError } from "../../abci/txError.js";
import { fieldText } from "../../../codec/fieldText.js";

/**
 * sdk.AccAddressFromBech32 / ValAddressFromBech32 as Msg handlers use them:
 * a bad address is a plain error (code 1) with the real text.
 */
export function bech32Bytes(value: unknown, prefix: string): Uint8Array {
  const text = fieldText(value);
  if (text.trim() === "") throw plainError("empty address string is not allowed");
  let decoded: { prefix: string; words: number[] };
  try {
    decoded = bech32.decode(text, 1023);
  } catch (err) {
    throw plainError(`decoding bech32 failed: ${(err as Error).message}`);
  }
  if (decoded.prefix !== prefix) throw plainError(`invalid Bech32 prefix; expected ${prefix}, got ${decoded.prefix}`);
  const bytes = Uint8Array.from(bech32.fromWords(decoded.words));
  if (bytes.length === 0) throw plainError("addresses cannot be empty");
  if (bytes.length > 255) throw plainError(`address max length is 255, got ${bytes.length}`);
  return bytes;
}

export const accountBytes = (value: unknown, ctx: ModuleContext) => bech32Bytes(value, bech32Prefixes(ctx.chain.bech32Prefix).account);
export const operatorAddressBytes = (value: unknown, ctx: ModuleContext) => bech32Bytes(value, bech32Prefixes(ctx.chain.bech32Prefix).validatorOperator);

/** The account address (bech32) whose bytes are those of an operator address: sdk.AccAddress(valAddr). */
export function operatorAccount(value: unknown, prefix: string): string {
  try {
    return encodeBech32Address(prefix, bech32Bytes(value, bech32Prefixes(prefix).validatorOperator));
  } catch (err) {
    throw panicError((err as Error).message);
  }
}

/** A GetSigners that decodes its address and panics (ErrPanic) when it does not. */
export function accountSigner(value: unknown, prefix: string): string {
  try {
    bech32Bytes(value, prefix);
  } catch (err) {
    throw panicError((err as Error).message);
  }
  return String(value);
}

/** A string field that must be set: the message's `if msg.X == ""` checks. */
export const isEmpty = (msg: ProtoMessage, field: string) => fieldText(msg[field]) === "";

/**
 * A bech32 account field checked in a Msg's ValidateBasic as the extension modules check it:
 * sdk code 7 with `<what> (<the decoding error>)`, e.g. "invalid owner address (decoding bech32 failed: …)".
 */
export function checkAccountField(value: unknown, prefix: string, what: string): void {
  try {
    bech32Bytes(value, prefix);
  } catch (err) {
    throw sdkError("invalidAddress", `${what} (${(err as Error).message})`);
  }
}
