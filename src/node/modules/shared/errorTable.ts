import { moduleError, TxError } from "../../abci/txError.js";

/** One registered error of a module: its code and description (types/errors.go). */
export type RegisteredError = readonly [code: number, description: string];

/**
 * The registered errors of one codespace as a function that builds the TxError
 * of one of them by name, with an optional detail (the wrapped message).
 */
export function errorTable<Name extends string>(codespace: string, table: Record<Name, RegisteredError>): (name: Name, detail?: string) => TxError {
  return (name, detail) => {
    const [code, description] = table[name];
    return moduleError(codespace, code, description, detail);
  };
}

/**
 * An error the real code returns without a registered code (a plain Go error,
 * e.g. from bech32 decoding): code 1 in codespace "undefined", the text as log.
 */
export function plainError(text: string): TxError {
  return moduleError("undefined", 1, text);
}

/** What the real app answers when its code panics (a GetSigners on an address that does not decode, an unregistered param key): ErrPanic. */
export function panicError(text: string): TxError {
  return moduleError("undefined", 111222, "panic", `recovered: ${text}`);
}

/**
 * A validation text written as the real errors.Wrap writes it ("<detail>: <registered description>")
 * as the registered error of `table` whose description ends it.
 */
export function errorFromText(codespace: string, table: Record<string, RegisteredError>, text: string): TxError {
  for (const [code, description] of Object.values(table)) {
    if (text.endsWith(`: ${description}`)) return new TxError(codespace, code, description, text.slice(0, -description.length - 2));
  }
  throw new Error(`not a ${codespace} error text: ${text}`);
}
