import fc from "fast-check";
import type { Schema, SimpleParameter } from "../../src/openapi/openApiTypes.js";

/** What the OpenAPI document says a parameter holds, as far as invalid values go. */
type ValueKind = "unsigned" | "signed" | "positive" | "bytes" | "bool" | "enum" | "list" | "string";

/**
 * One invalid value. `raw`: inserted into the URL as it is (a percent-encoding
 * the client did not make). `refuse`: the value is outside the parameter's
 * declared type, so the answer must be a 4xx, never a 2xx.
 */
export interface FuzzValue {
  text: string;
  raw?: boolean;
  refuse: boolean;
}

function kindOf(p: { type?: string; format?: string; enum?: unknown[]; minimum?: number }): ValueKind {
  if (p.enum) return "enum";
  if (p.type === "boolean") return "bool";
  if (p.type === "array") return "list";
  if (p.type === "integer") return (p.minimum ?? -1) >= 1 ? "positive" : "signed";
  if (p.format === "uint64" || p.format === "uint32") return "unsigned";
  if (p.format === "int64" || p.format === "int32") return "signed";
  if (p.format === "byte") return "bytes";
  return "string";
}

const TEN_KB = "a".repeat(10 * 1024);

/** Text that is no number, boolean, enum name or base64 of anything (each has a character base64 does not use, or a length it never has). */
const ODD_TEXT = [
  TEN_KB + "!",
  "\u0000",
  "\uFEFF",
  "é",
  "𝟘𝟙",
  "\u202Eabc",
  "\uD800",
  "日本語",
  "undefined",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "' OR '1'='1",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "%s%n",
  "a\r\nX-Injected: 1",
];

/** Percent-encodings as a careless client writes them: malformed, NUL, overlong UTF-8, dot segments, bidi. */
const RAW_PERCENT = ["%", "%zz", "%00", "%C0%AF", "%2e%2e%2f", "%E2%80%AE", "%FF%FE", "%uD800", "%%32%35"];

const NOT_DECIMAL = ["0x10", "\uFEFF5", "1e3", " 5", "5 ", "5.0", "+5", "NaN", "Infinity", "1_000", "٣", "05"];
const OUT_OF_UINT64 = ["18446744073709551617", "99999999999999999999999999999"];
/** Within the type, but past anything the chain holds (offsets, pages, heights): a 4xx or an empty answer, never a 5xx. */
const LARGE = ["4294967296", "9223372036854775807", "18446744073709551615"];
const OUT_OF_INT64 = ["9223372036854775808", "-9223372036854775809"];
const NOT_BASE64 = ["A", "AAAAA", "1e308", "+/_-", "QQ=", "QQ===", "=QQ", "not base64!"];
const NOT_BOOL = ["maybe", "2", "yes", "on", "TRUE ", "tru"];

/** The curated invalid values of a kind, and whether each must be refused. */
function curated(kind: ValueKind, enumValues: Array<string | number> = []): FuzzValue[] {
  const refused = (texts: string[]) => texts.map((text) => ({ text, refuse: true }));
  const tolerated = (texts: string[]) => texts.map((text) => ({ text, refuse: false }));
  const odd = (refuse: boolean) => ODD_TEXT.map((text) => ({ text, refuse }));
  const raw = (refuse: boolean) => RAW_PERCENT.map((text) => ({ text, raw: true, refuse }));
  switch (kind) {
    case "unsigned":
      return [...refused([...NOT_DECIMAL, ...OUT_OF_UINT64, "-1", "-0"]), ...tolerated(LARGE), ...odd(true), ...raw(true)];
    case "signed":
      return [...refused([...NOT_DECIMAL, ...OUT_OF_INT64, ...OUT_OF_UINT64]), ...tolerated(["-1", "-0", ...LARGE.slice(0, 2)]), ...odd(true), ...raw(true)];
    case "positive":
      return [...refused([...NOT_DECIMAL, ...OUT_OF_UINT64, "-1", "0", "-0"]), ...tolerated(LARGE.slice(0, 2)), ...odd(true), ...raw(true)];
    case "bytes":
      return [...refused(NOT_BASE64), ...odd(false), ...raw(false)];
    case "bool":
      return [...refused(NOT_BOOL), ...odd(true), ...raw(true)];
    case "enum": {
      const first = String(enumValues[0] ?? "X");
      return [...refused(["NOPE", "99", "-1", "1.5", first.toLowerCase(), `${first} `]), ...odd(true), ...raw(true)];
    }
    case "list":
      return [...tolerated([",,,", "1,x", ",".repeat(1000)]), ...odd(false), ...raw(false)];
    case "string":
      return [...odd(false), ...raw(false)];
  }
}

/** Random invalid values of a kind from a seeded generator: out-of-range integers (refused) and arbitrary Unicode text (tolerated). */
function randomValues(kind: ValueKind, seed: number, count: number): FuzzValue[] {
  const numeric = kind === "unsigned" || kind === "signed" || kind === "positive";
  const outOfRange = fc.oneof(fc.bigInt({ min: -(2n ** 80n), max: -(2n ** 63n) - 1n }), fc.bigInt({ min: 2n ** 64n, max: 2n ** 80n }));
  const text = fc.string({ unit: "binary", minLength: 1, maxLength: 40 });
  return [
    ...(numeric ? fc.sample(outOfRange, { seed, numRuns: count }).map((n) => ({ text: n.toString(), refuse: true })) : []),
    ...fc.sample(text, { seed: seed + 1, numRuns: count }).map((t) => ({ text: t, refuse: false })),
  ];
}

/**
 * The values one parameter is tried with: `perParameter` of the curated
 * ones (chosen by the seed, those that must be refused first) and a few
 * random ones. Empty values are left out of path parameters (an empty
 * segment is another path); header values keep to what HTTP can carry.
 */
export function valuesFor(p: SimpleParameter, seed: number, perParameter: number): FuzzValue[] {
  const kind = kindOf(p.type === "array" && p.in === "query" && p.items ? p.items : p);
  let values = [...curated(kind, p.enum ?? p.items?.enum), ...randomValues(kind, seed, 2)];
  if (p.in === "query" || p.in === "header") values.push({ text: "", refuse: false });
  // HTTP carries printable ASCII in a header and drops the spaces around it
  if (p.in === "header") values = values.filter((v) => !v.raw && /^([\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?)?$/.test(v.text) && v.text.length <= 8192);
  const order = fc.sample(
    fc.shuffledSubarray(
      values.map((_, i) => i),
      { minLength: values.length, maxLength: values.length },
    ),
    { seed, numRuns: 1 },
  )[0]!;
  const shuffled = order.map((i) => values[i]!);
  // two thirds values that must be refused, the rest tolerated ones (each side topped up from the other when short)
  const refused = shuffled.filter((v) => v.refuse);
  const tolerated = shuffled.filter((v) => !v.refuse);
  const share = Math.min(refused.length, Math.max(Math.ceil((perParameter * 2) / 3), perParameter - tolerated.length));
  return [...refused.slice(0, share), ...tolerated.slice(0, perParameter - share)];
}

/** A well-formed value for a parameter that is not the one being tried, so that the route is still the one under test. */
export function validValue(
  p: { name: string; type?: string; format?: string; enum?: Array<string | number>; items?: unknown; minimum?: number },
  account: string,
): string {
  switch (kindOf(p)) {
    case "unsigned":
    case "signed":
    case "positive":
      return "1";
    case "bytes":
      return "AA==";
    case "bool":
      return "true";
    case "enum":
      return String(p.enum![0]);
    case "list":
      return "1,2";
    case "string":
      return /addr|address|delegator|voter|depositor|owner|provider|sender|from/i.test(p.name) ? account : "x";
  }
}

/** A value of a body schema with the right shape (objects filled, arrays empty), to mutate one field at a time. */
export function exampleOf(schema: Schema, definitions: Record<string, Schema>, account: string, depth = 0): unknown {
  if (schema.$ref) return exampleOf(definitions[schema.$ref.replace("#/definitions/", "")]!, definitions, account, depth);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => exampleOf(s, definitions, account, depth)));
  switch (schema.type) {
    case "object":
      if (depth > 3) return {};
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, s]) => [key, exampleOf({ ...s, title: key }, definitions, account, depth + 1)]),
      );
    case "array":
      return [];
    case "boolean":
      return false;
    case "integer":
    case "number":
      return 1;
    default:
      return validValue({ name: schema.title ?? "", type: schema.type, format: schema.format, enum: schema.enum }, account);
  }
}

/** Values of the wrong JSON type, or of the right type and wrong content, for one body field. */
export function wrongBodyValues(schema: Schema): Array<{ value: unknown; refuse: boolean }> {
  const kind = kindOf(schema);
  const typed = kind === "unsigned" || kind === "signed" || kind === "bytes" || kind === "enum" || kind === "bool";
  const wrongType = [
    null,
    true,
    0,
    -1,
    1.5,
    1e308,
    "",
    "x",
    TEN_KB,
    [],
    {},
    [[[]]],
    JSON.parse('{"__proto__": {"polluted": 1}}') as unknown,
    "\uD800",
    "18446744073709551617",
    "0x10",
    "\uFEFF1",
    "not base64!",
  ];
  return wrongType.map((value) => ({
    value,
    // a value of another JSON type than a scalar field's, or a number text outside an integer field's type
    refuse:
      typed &&
      value !== null &&
      (typeof value === "object" ||
        (kind !== "bool" && typeof value === "boolean") ||
        (kind === "unsigned" && (value === -1 || value === 1.5 || value === "0x10" || value === "\uFEFF1" || value === "18446744073709551617")) ||
        (kind === "bytes" && (value === "not base64!" || value === "\uFEFF1"))),
  }));
}

/** Whole bodies that are not the JSON of the operation: malformed, of another JSON type, nested past reason, too large. */
export function malformedBodies(): Array<{ label: string; text: string }> {
  const deep = 100_000;
  const bodies: Record<string, string> = {
    empty: "",
    "unclosed object": "{",
    "bad literal": "nul",
    "unclosed array": "[1,",
    "missing value": '{"a":}',
    NUL: "\u0000",
    "trailing garbage": "{}garbage",
    "a string": '"str"',
    "a number": "123",
    null: "null",
    "an array": "[]",
    true: "true",
    [`arrays nested ${deep} deep`]: "[".repeat(deep) + "]".repeat(deep),
    [`objects nested ${deep / 2} deep`]: '{"a":'.repeat(deep / 2) + "1" + "}".repeat(deep / 2),
    "over rpc-max-body-bytes": JSON.stringify({ pad: "x".repeat(1_100_000) }),
  };
  return Object.entries(bodies).map(([label, text]) => ({ label, text }));
}
