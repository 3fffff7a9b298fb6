import protobuf from "protobufjs";
import { fieldKind, isDuration, isTimestamp } from "../codec/fieldKinds.js";
import { JsonInputError, camelCase, type Proto3JsonParser } from "../codec/json/parseProto3.js";
import type { ProtoMessage } from "../codec/json/renderProto3.js";
import type { RouteSpec } from "../tables/routeSpec.js";
import { GatewayError, GrpcCode } from "../http/grpcStatus.js";

export interface RawRequest {
  pathParams: Record<string, string>;
  /** The query string; only GET routes bind it. */
  query: URLSearchParams;
  /** The parsed JSON body of `body: "*"` routes (undefined when empty). */
  body: unknown;
}

/**
 * Builds the request message of a route from the HTTP request, as grpc-gateway
 * does: the body ("*") first, then path variables, then query parameters by
 * dotted field name (proto or camelCase). Unknown query parameters are
 * ignored; a value that does not fit its field is a 400 that names it.
 */
export function bindRequest(route: RouteSpec, raw: RawRequest, parser: Proto3JsonParser): ProtoMessage {
  try {
    const message: ProtoMessage = route.body ? parser.parse(route.requestType, raw.body ?? {}) : {};
    for (const binding of route.pathBindings) {
      const value = raw.pathParams[binding.variable] ?? "";
      setField(message, binding.fieldPath, scalarValue(binding.fieldPath.at(-1)!, [value], binding.variable, parser, true));
    }
    if (route.verb === "get") bindQuery(route, message, raw.query, parser);
    return message;
  } catch (err) {
    if (err instanceof JsonInputError) throw new GatewayError(GrpcCode.InvalidArgument, `invalid request: ${err.message}`);
    throw err;
  }
}

function bindQuery(route: RouteSpec, message: ProtoMessage, query: URLSearchParams, parser: Proto3JsonParser): void {
  if (query.size === 0) return;
  const bound = new Set(route.pathBindings.map((b) => b.fieldPath.map((f) => f.name).join(".")));
  const fields = new Map<string, { fieldPath: protobuf.Field[]; values: string[] }>();
  for (const key of new Set(query.keys())) {
    // "events[]=…": the form of a list that axios and PHP-style encoders write (generated LCD clients send
    // it); read as "events" for a repeated field. grpc-gateway ignored it, so such clients found nothing.
    const bracketed = key.endsWith("[]");
    const fieldPath = resolveQueryKey(route.requestType, bracketed ? key.slice(0, -2) : key);
    if (!fieldPath || (bracketed && !fieldPath.at(-1)!.repeated)) continue; // unknown parameters are ignored, as by the real gateway
    const name = fieldPath.map((f) => f.name).join(".");
    if (bound.has(name)) continue;
    const entry = fields.get(name) ?? { fieldPath, values: [] };
    entry.values.push(...query.getAll(key));
    fields.set(name, entry);
  }
  for (const [name, { fieldPath, values }] of fields) setField(message, fieldPath, scalarValue(fieldPath.at(-1)!, values, name, parser, false));
}

/** "pagination.countTotal" → [pagination field, count_total field]; undefined when a segment is unknown or not a scalar. */
function resolveQueryKey(type: protobuf.Type, key: string): protobuf.Field[] | undefined {
  const fields: protobuf.Field[] = [];
  let current: protobuf.Type | undefined = type;
  for (const segment of key.split(".")) {
    if (!current) return undefined;
    const field: protobuf.Field | undefined = current.fields[segment] ?? current.fieldsArray.find((f) => camelCase(f.name) === segment);
    if (!field) return undefined;
    fields.push(field);
    const next: protobuf.ReflectionObject | null = field.resolvedType;
    current = next instanceof protobuf.Type && !isTimestamp(next) && !isDuration(next) ? next : undefined;
  }
  const last = fields.at(-1)!;
  const kind = fieldKind(last);
  if (last instanceof protobuf.MapField) return undefined;
  if (kind.kind === "message" && !isTimestamp(kind.type) && !isDuration(kind.type)) return undefined;
  return fields;
}

function scalarValue(field: protobuf.Field, values: string[], name: string, parser: Proto3JsonParser, fromPath: boolean): unknown {
  const kind = fieldKind(field);
  if (field.repeated) {
    // A repeated field bound in the path is a comma-separated list (runtime.*Slice).
    const items = fromPath ? values[0]!.split(",") : values;
    return items.map((item, i) => parser.parseValue(kind, item, `${name}[${i}]`));
  }
  // As grpc-gateway 1.16 (runtime/query.go): a non-repeated field given twice takes the first value ("too many field values" is only logged).
  return parser.parseValue(kind, values[0], name);
}

function setField(message: ProtoMessage, path: protobuf.Field[], value: unknown): void {
  let target = message;
  for (const field of path.slice(0, -1)) {
    target[field.name] ??= {};
    target = target[field.name] as ProtoMessage;
  }
  target[path.at(-1)!.name] = value;
}
