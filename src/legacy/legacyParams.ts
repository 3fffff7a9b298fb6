import type { PageCaps } from "../http/pageCaps.js";
import Long from "long";
import { IntegerTextError, parseIntegerText, type IntegerType } from "../codec/scalarText.js";
import type { ParamSpec, Paging } from "../tables/legacyRouteSpec.js";
import { fillText } from "../tables/legacyTemplates.js";
import { LegacyError } from "./legacyErrors.js";

/** An integer parameter through the one integer parser (codec/scalarText.ts), failing with the text the real handler gave. */
export function integerParam(raw: string, type: IntegerType, fail: (reason: IntegerTextError["reason"]) => LegacyError): bigint {
  try {
    return parseIntegerText(raw, type);
  } catch (err) {
    if (err instanceof IntegerTextError) throw fail(err.reason);
    throw err;
  }
}

/** Go strconv's error text ("strconv.Atoi: parsing "x": invalid syntax"). */
export const strconvText = (fn: string, raw: string, reason: IntegerTextError["reason"]) =>
  `strconv.${fn}: parsing ${JSON.stringify(raw)}: ${reason === "syntax" ? "invalid syntax" : "value out of range"}`;

const strconvError = (fn: string, raw: string) => (reason: IntegerTextError["reason"]) => new LegacyError(400, strconvText(fn, raw, reason));

/**
 * A path variable or query parameter after the checks the table declares:
 * the default when absent, refused values (400 with the table's message),
 * upper-casing, hex and integer formats (400 with the real server's texts).
 */
export function checkedParam(spec: ParamSpec, raw: string | undefined): string | undefined {
  if (raw === undefined || raw === "") {
    if (spec.default !== undefined) return spec.default;
    if (spec.required && spec.in === "query")
      throw new LegacyError(400, spec.error ? fillText(spec.error, { value: "" }) : `the query parameter ${spec.name} is required`);
    return raw;
  }
  if (spec.refuse?.match.test(raw)) throw new LegacyError(400, fillText(spec.refuse.error, { value: raw, VALUE: raw.toUpperCase() }));
  const value = spec.upper ? raw.toUpperCase() : raw;
  const fail = (message: string) => new LegacyError(400, spec.error ? fillText(spec.error, { value: raw }) : message);
  switch (spec.format) {
    case "hex":
      if (!/^([0-9a-fA-F]{2})+$/.test(value)) throw fail(`invalid hex "${raw}" for ${spec.name}`);
      break;
    case "uint64":
    case "int64":
      integerParam(value, spec.format, () => fail(`'${raw}' is not a valid ${spec.format}`));
      break;
  }
  return value;
}

/** ?height= as the real handlers read it (ParseQueryHeightOrReturnBadRequest): absent or 0 = latest. */
export function queryHeight(raw: string | null): number {
  if (raw === null || raw === "") return 0;
  const height = integerParam(raw, "int64", strconvError("ParseInt", raw));
  if (height < 0n) throw new LegacyError(400, "height must be equal or greater than zero");
  if (height > BigInt(Number.MAX_SAFE_INTEGER)) throw new LegacyError(400, `height ${raw} is beyond any chain`);
  return Number(height);
}

/** ?page=&limit= as ParseHTTPArgsWithLimit reads them (Go int): > 0 when given; page 1 and the route's limit by default. */
export function pageAndLimit(query: URLSearchParams, paging: Paging, caps?: PageCaps): { page: number; limit: number } {
  const read = (name: "page" | "limit", fallback: number): number => {
    const raw = query.get(name);
    if (raw === null || raw === "") return fallback;
    const n = integerParam(raw, "int64", strconvError("Atoi", raw));
    if (n <= 0n) throw new LegacyError(400, `${name} must greater than 0`);
    if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new LegacyError(400, `${name} ${raw} is beyond any result`);
    return Number(n);
  };
  const page = read("page", 1);
  const limit = read("limit", Math.min(paging.defaultLimit, caps?.maxLimit ?? paging.defaultLimit));
  caps?.check(limit, (page - 1) * limit, { limit: "limit", offset: `(page - 1) × limit` }, (message) => new LegacyError(400, message));
  return { page, limit };
}

/** The pagination offset of a page: (page - 1) × limit, which must fit the uint64 offset field. */
export function pageOffset(paging: { page: number; limit: number }): Long {
  const offset = (BigInt(paging.page) - 1n) * BigInt(paging.limit);
  if (offset >= 2n ** 64n) throw new LegacyError(400, `page ${paging.page} of ${paging.limit} is beyond any result`);
  return Long.fromString(offset.toString(), true);
}
