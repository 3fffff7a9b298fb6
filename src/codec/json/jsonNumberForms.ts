import { parse as parseLossless } from "lossless-json";
import { isPlainIntegerText } from "../numberText.js";

/**
 * A JSON number written in another form than an integer's one decimal text —
 * "1e-999", "200e3", "200000.0", "-0", "0.5" — kept as its text, so that an
 * integer field can refuse it (as v0.41's jsonpb and amino do) instead of
 * reading what JavaScript's number made of it (0, 200000, 200000, 0).
 * A float field reads its value; anywhere else it is its text.
 */
export class JsonNumberText {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  toString(): string {
    return this.#text;
  }
  valueOf(): number {
    return Number(this.#text);
  }
  toJSON(): string {
    return this.#text;
  }
}

/** A JSON object of the request (not an array, not null, not a kept number). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof JsonNumberText);
}

/**
 * JSON.parse, except that numbers not in an integer's one form come back as
 * JsonNumberText. A body without such numbers (nearly all) is parsed by
 * JSON.parse after one linear scan; the others by lossless-json, which hands
 * each number's text over (also linear; slower, but only for these bodies).
 * Throws SyntaxError on malformed JSON.
 */
export function parseJsonKeepingNumberForms(text: string): unknown {
  if (!hasOtherNumberForms(text)) return JSON.parse(text);
  return parseLossless(text, null, {
    parseNumber: (number) => (isIntegerForm(number) ? Number(number) : new JsonNumberText(number)),
    onDuplicateKey: ({ newValue }) => newValue, // the last one, as JSON.parse and Go's encoding/json take it
  });
}

function isIntegerForm(number: string): boolean {
  return isPlainIntegerText(number) && number !== "-0";
}

/** Whether a number token outside strings is not in an integer's form (one pass; malformed JSON is left to the parser). */
function hasOtherNumberForms(text: string): boolean {
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return false; // an unterminated string: JSON.parse says so
      i = end + 1;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      const start = i;
      while (i < text.length && isNumberChar(text.charCodeAt(i))) i++;
      if (!isIntegerForm(text.slice(start, i))) return true;
    } else i++;
  }
  return false;
}

/** Whether the quote at `at` follows an odd run of backslashes (each run is counted once: linear overall). */
function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (at - backslashes - 1 >= 0 && text.charCodeAt(at - backslashes - 1) === 92) backslashes++;
  return backslashes % 2 === 1;
}

/** Characters of a JSON number token: digits, sign, ".", "e", "E". */
function isNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69;
}
