import protobuf from "protobufjs";
import { fieldKind, isAny, isDuration, isTimestamp, typeName } from "../codec/fieldKinds.js";
import type { RouteSpec } from "../tables/routeSpec.js";
import { HEIGHT_HEADER } from "../http/height.js";
import type { SimpleParameter } from "./openApiTypes.js";
import { sharedScalarSchema } from "./scalarSchemas.js";

type ScalarType = Pick<SimpleParameter, "type" | "format" | "pattern" | "enum" | "minimum" | "description">;

/** Better words than the field's type for parameters found on many list routes. */
const KNOWN_DESCRIPTIONS: Record<string, string> = {
  "pagination.key": "next_key of the previous page (standard base64; percent-encode + as %2B). Give either key or offset.",
  "pagination.offset": "number of entries to skip (used when no key is given)",
  "pagination.limit": "page size (default 100)",
  "pagination.count_total": "fill pagination.total in the answer (always done when no limit is given)",
  "pagination.reverse": "list in descending order",
};

/**
 * Path variables, typed from the request fields they fill. 64-bit integers are
 * `type: string` with format int64/uint64, as in the proto3 JSON the answers
 * use and in grpc-gateway's own OpenAPI output: generated clients then keep
 * them as text, which a JavaScript number cannot hold beyond 2^53.
 */
export function pathParameters(route: RouteSpec): SimpleParameter[] {
  return route.segments.flatMap((segment): SimpleParameter[] => {
    if ("literal" in segment) return [];
    const binding = route.pathBindings.find((b) => b.variable === segment.variable)!;
    const field = binding.fieldPath.at(-1)!;
    const rules = [
      segment.match ? `must match ${segment.match.source}` : "",
      segment.reject ? `must not match ${segment.reject.source} (another route takes those)` : "",
    ].filter(Boolean);
    const scalar = scalarType(field);
    const description = [scalar.description, ...rules].filter(Boolean).join("; ");
    const base: SimpleParameter = { name: segment.variable, in: "path", required: true, ...scalar, description: description || undefined };
    if (field.repeated) return [{ ...arrayOf(base), collectionFormat: "csv" }];
    return [segment.match ? { ...base, pattern: segment.match.source } : base];
  });
}

/**
 * The query parameters a GET route binds: every scalar field of the request
 * that the path does not fill, nested messages flattened by dotted name
 * (pagination.limit), repeated scalars given by repeating the key. Map fields,
 * repeated messages and Any cannot be written in a query string and are left out,
 * as the binder (src/gateway/binder.ts) leaves them out.
 */
export function queryParameters(route: RouteSpec): SimpleParameter[] {
  if (route.verb !== "get") return [];
  const bound = new Set(route.pathBindings.map((b) => b.fieldPath.map((f) => f.name).join(".")));
  const out: SimpleParameter[] = [];
  const walk = (type: protobuf.Type, prefix: string, seen: Set<string>) => {
    for (const field of type.fieldsArray) {
      const name = prefix + field.name;
      if (bound.has(name) || field instanceof protobuf.MapField) continue;
      const kind = fieldKind(field);
      if (kind.kind === "message" && !isTimestamp(kind.type) && !isDuration(kind.type)) {
        if (field.repeated || isAny(kind.type) || seen.has(kind.type.fullName)) continue;
        walk(kind.type, `${name}.`, new Set([...seen, kind.type.fullName]));
        continue;
      }
      const scalar = scalarType(field);
      const parameter: SimpleParameter = {
        name,
        in: "query",
        required: false,
        ...scalar,
        description: KNOWN_DESCRIPTIONS[name] ?? scalar.description,
      };
      out.push(field.repeated ? { ...arrayOf(parameter), collectionFormat: "multi" } : parameter);
    }
  };
  walk(route.requestType, "", new Set([route.requestType.fullName]));
  return out;
}

export function heightHeader(): SimpleParameter {
  return {
    name: HEIGHT_HEADER,
    in: "header",
    required: false,
    type: "string",
    format: "int64",
    pattern: "^[0-9]+$",
    description:
      "Read the state at this block height (absent or 0: the latest). The height answered is in the Grpc-Metadata-X-Cosmos-Block-Height response header.",
  };
}

function arrayOf(parameter: SimpleParameter): SimpleParameter {
  const { type, format, enum: values, minimum, ...rest } = parameter;
  const items = { type: type as "string" | "integer" | "number" | "boolean", format, enum: values, minimum };
  return { ...rest, type: "array", items: dropUndefined(items) };
}

function scalarType(field: protobuf.Field): ScalarType {
  const kind = fieldKind(field);
  const shared = sharedScalarSchema(field);
  if (shared) {
    const { example: _example, ...parameter } = shared; // parameters take no example in v2
    return parameter as ScalarType;
  }
  switch (kind.kind) {
    case "bytes":
      return { type: "string", format: "byte", description: "base64 (standard or URL-safe)" };
    case "enum":
      return { type: "string", enum: Object.keys(kind.type.values), description: `enum ${typeName(kind.type)} (the number is accepted too)` };
    case "message":
      return isTimestamp(kind.type)
        ? { type: "string", format: "date-time" }
        : { type: "string", description: "duration: seconds with an s suffix, e.g. 1.5s" };
    default:
      throw new Error(`no parameter type for field ${field.fullName} of type ${field.type}`);
  }
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
