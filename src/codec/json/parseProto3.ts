import protobuf from "protobufjs";
import Long from "long";
import { decToWire } from "../decimal.js";
import { parseDuration, parseTimestamp } from "../wellKnownTime.js";
import { fieldKind, isAny, isDuration, isTimestamp, type FieldKind } from "../fieldKinds.js";
import { resolveTypeUrl } from "../typeRegistry.js";
import type { ProtoMessage } from "./renderProto3.js";

/** A JSON value that does not fit its field; `path` names the field ("pagination.limit"). */
export class JsonInputError extends Error {
  constructor(readonly path: string, detail: string) {
    super(path ? `${path}: ${detail}` : detail);
  }
}

const INT64_TEXT = /^-?(0|[1-9]\d*)$/;

/**
 * Parses the proto3 JSON of request bodies and query values into protobufjs
 * message objects: field names in proto or camelCase form, 64-bit ints as
 * strings or numbers, enums by name or number, bytes in standard or URL-safe
 * base64, Any with "@type". Unknown fields are ignored, as the real gateway does.
 */
export class Proto3JsonParser {
  constructor(private readonly root: protobuf.Root) {}

  parse(type: protobuf.Type, json: unknown, path = ""): ProtoMessage {
    if (json === null || json === undefined) return {};
    if (typeof json !== "object" || Array.isArray(json)) throw new JsonInputError(path, `expected an object for ${type.name}`);
    if (isAny(type)) return this.parseAny(json as Record<string, unknown>, path);
    const out: ProtoMessage = {};
    for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
      const field = findField(type, key);
      if (!field || value === null) continue;
      out[field.name] = this.parseField(field, value, join(path, field.name));
    }
    return out;
  }

  /** Parses one field value (used by the query-string binder too). */
  parseField(field: protobuf.Field, value: unknown, path: string): unknown {
    const kind = fieldKind(field);
    if (field instanceof protobuf.MapField) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) throw new JsonInputError(path, "expected an object");
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.parseValue(kind, v, `${path}[${k}]`)]));
    }
    if (field.repeated) {
      if (!Array.isArray(value)) throw new JsonInputError(path, "expected an array");
      return value.map((item, i) => this.parseValue(kind, item, `${path}[${i}]`));
    }
    return this.parseValue(kind, value, path);
  }

  parseValue(kind: FieldKind, value: unknown, path: string): unknown {
    switch (kind.kind) {
      case "int64":
        return parseInt64(value, path);
      case "int32":
        return parseInt32(value, path);
      case "float": {
        const n = typeof value === "string" ? Number(value) : value;
        if (typeof n !== "number" || Number.isNaN(n)) throw new JsonInputError(path, `"${String(value)}" is not a number`);
        return n;
      }
      case "bool":
        return parseBool(value, path);
      case "string":
        if (typeof value !== "string") throw new JsonInputError(path, "expected a string");
        if (kind.custom === "Dec") return wrap(path, () => decToWire(value));
        if (kind.custom === "Int" && !INT64_TEXT.test(value) && value !== "") throw new JsonInputError(path, `"${value}" is not an integer`);
        return value;
      case "bytes":
        // sdk.Dec / sdk.Int in a bytes field: JSON shows the number, the wire holds its text
        if (kind.custom) return new TextEncoder().encode(this.parseValue({ kind: "string", custom: kind.custom }, value, path) as string);
        return parseBytes(value, path);
      case "enum":
        return parseEnum(kind.type, value, path);
      case "message":
        if (isTimestamp(kind.type)) return wrap(path, () => parseTimestamp(expectString(value, path)));
        if (isDuration(kind.type)) return wrap(path, () => parseDuration(expectString(value, path)));
        return this.parse(kind.type, value, path);
    }
  }

  private parseAny(json: Record<string, unknown>, path: string): ProtoMessage {
    const typeUrl = json["@type"];
    if (typeof typeUrl !== "string") throw new JsonInputError(join(path, "@type"), "an Any needs a \"@type\"");
    const inner = wrap(join(path, "@type"), () => resolveTypeUrl(this.root, typeUrl));
    const body = inner.fullName.startsWith(".google.protobuf.") ? json.value : withoutType(json);
    const message = this.parseValue({ kind: "message", type: inner }, body, path) as ProtoMessage;
    return { type_url: typeUrl, value: inner.encode(message).finish() };
  }
}

function findField(type: protobuf.Type, key: string): protobuf.Field | undefined {
  return type.fields[key] ?? type.fieldsArray.find((f) => camelCase(f.name) === key);
}

export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function withoutType(json: Record<string, unknown>): Record<string, unknown> {
  const { ["@type"]: _ignored, ...rest } = json;
  return rest;
}

function join(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

function wrap<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw err instanceof JsonInputError ? err : new JsonInputError(path, (err as Error).message);
  }
}

function expectString(value: unknown, path: string): string {
  if (typeof value !== "string") throw new JsonInputError(path, "expected a string");
  return value;
}

/** Integers as the real gateway reads them: decimal, or 0x hex (Go ParseInt base 0). */
function integerText(value: unknown, path: string): string {
  if (typeof value === "number" && Number.isInteger(value)) return String(value);
  if (typeof value === "string") {
    const text = value.trim();
    if (INT64_TEXT.test(text)) return text;
    if (/^-?0x[0-9a-f]+$/i.test(text)) {
      const negative = text.startsWith("-");
      const magnitude = BigInt(negative ? text.slice(1) : text);
      return (negative ? -magnitude : magnitude).toString();
    }
  }
  throw new JsonInputError(path, `"${String(value)}" is not an integer`);
}

function parseInt64(value: unknown, path: string): Long {
  const text = integerText(value, path);
  const big = BigInt(text);
  if (big < -(2n ** 63n) || big >= 2n ** 64n) throw new JsonInputError(path, `${text} is out of the 64-bit range`);
  return big < 0n ? Long.fromString(text, false) : Long.fromString(text, true);
}

function parseInt32(value: unknown, path: string): number {
  const n = Number(integerText(value, path));
  if (n < -(2 ** 31) || n >= 2 ** 32) throw new JsonInputError(path, `${n} is out of the 32-bit range`);
  return n;
}

function parseBool(value: unknown, path: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string") {
    if (["true", "1", "t", "T", "TRUE", "True"].includes(value)) return true;
    if (["false", "0", "f", "F", "FALSE", "False"].includes(value)) return false;
  }
  throw new JsonInputError(path, `"${String(value)}" is not a boolean`);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

function parseBytes(value: unknown, path: string): Uint8Array {
  if (typeof value !== "string") throw new JsonInputError(path, "expected a base64 string");
  if (BASE64.test(value)) return new Uint8Array(Buffer.from(value, "base64"));
  if (BASE64URL.test(value)) return new Uint8Array(Buffer.from(value, "base64url"));
  throw new JsonInputError(path, `"${value}" is not base64`);
}

function parseEnum(type: protobuf.Enum, value: unknown, path: string): number {
  if (typeof value === "string" && Object.hasOwn(type.values, value)) return type.values[value]!;
  if (typeof value === "number" || (typeof value === "string" && INT64_TEXT.test(value))) {
    const n = Number(value);
    if (Object.hasOwn(type.valuesById, n)) return n;
  }
  const names = Object.keys(type.values).join(", ");
  throw new JsonInputError(path, `"${String(value)}" is not a ${type.name} (one of ${names}, or its number)`);
}
