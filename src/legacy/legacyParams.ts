import type { ParamSpec, Paging } from "../tables/legacyRouteSpec.js";
import { fillText } from "../tables/legacyTemplates.js";
import { LegacyError } from "./legacyErrors.js";

const MAX_UINT64 = 2n ** 64n;
const MAX_INT64 = 2n ** 63n;

/**
 * A path variable or query parameter after the checks the table declares:
 * the default when absent, refused values (400 with the table's message),
 * upper-casing, hex and integer formats (400 with the real server's texts).
 */
export function checkedParam(spec: ParamSpec, raw: string | undefined): string | undefined {
  if (raw === undefined || raw === "") {
    if (spec.default !== undefined) return spec.default;
    if (spec.required && spec.in === "query") throw new LegacyError(400, spec.error ? fillText(spec.error, { value: "" }) : `the query parameter ${spec.name} is required`);
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
      if (!/^\d+$/.test(value) || BigInt(value) >= MAX_UINT64) throw fail(`'${raw}' is not a valid uint64`);
      break;
    case "int64":
      if (!/^-?\d+$/.test(value) || BigInt(value) >= MAX_INT64 || BigInt(value) < -MAX_INT64) throw fail(`'${raw}' is not a valid int64`);
      break;
  }
  return value;
}

/** ?height= as the real handlers read it (ParseQueryHeightOrReturnBadRequest): absent or 0 = latest. */
export function queryHeight(raw: string | null): number {
  if (raw === null || raw === "") return 0;
  if (!/^[+-]?\d+$/.test(raw)) throw new LegacyError(400, `strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`);
  const height = BigInt(raw);
  if (height >= MAX_INT64 || height < -MAX_INT64) throw new LegacyError(400, `strconv.ParseInt: parsing ${JSON.stringify(raw)}: value out of range`);
  if (height < 0n) throw new LegacyError(400, "height must be equal or greater than zero");
  if (height > BigInt(Number.MAX_SAFE_INTEGER)) throw new LegacyError(400, `height ${raw} is beyond any chain`);
  return Number(height);
}

/** ?page=&limit= as ParseHTTPArgsWithLimit reads them: decimal, > 0 when given; page 1 and the route's limit by default. */
export function pageAndLimit(query: URLSearchParams, paging: Paging): { page: number; limit: number } {
  const read = (name: "page" | "limit", fallback: number): number => {
    const raw = query.get(name);
    if (raw === null || raw === "") return fallback;
    if (!/^[+-]?\d+$/.test(raw)) throw new LegacyError(400, `strconv.Atoi: parsing ${JSON.stringify(raw)}: invalid syntax`);
    const n = Number(raw);
    if (n <= 0) throw new LegacyError(400, `${name} must greater than 0`);
    if (!Number.isSafeInteger(n)) throw new LegacyError(400, `strconv.Atoi: parsing ${JSON.stringify(raw)}: value out of range`);
    return n;
  };
  return { page: read("page", 1), limit: read("limit", paging.defaultLimit) };
}
