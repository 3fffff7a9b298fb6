import protobuf from "protobufjs";
import Long from "long";
import { decToWire } from "../decimal.js";
import { parseDuration, parseTimestamp } from "../wellKnownTime.js";
import { fieldKind, fullNameOf, isAny, isDuration, isTimestamp, type FieldKind } from "../fieldKinds.js";
import { resolveTypeUrl, profileTypeUrl } from "../typeRegistry.js";
import { integerFromNumber, parseBase64, parseIntegerText, type IntegerType } from "../scalarText.js";
import type { ProtoMessage } from "./renderProto3.js";
import { isDecimalFloatText } from "../numberText.js";
import { intTextOutOfRange } from "../sdkNumberRange.js";
import { isJsonObject, JsonNumberText } from "./jsonNumberForms.js";

/** A JSON value that does not fit its field; `path` names the field ("pagination.limit"). */
export class JsonInputError extends Error {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(path ? `${path}: ${detail}` : detail);
  }
}

const INT64_TEXT = /^-?(0|[1-9]\d*)$/;

/**
 * Parses the proto3 JSON of request bodies and query values into protobufjs
 * message objects: field names in proto or camelCase form, integers as
 * decimal strings or numbers within their proto type's range, enums by name
 * or number, bytes in standard or URL-safe base64 (scalarText.ts), Any with
 * "@type". Unknown fields are ignored, as the real gateway does.
 */
export class Proto3JsonParser {
  constructor(private readonly root: protobuf.Root) {}

  parse(type: protobuf.Type, json: unknown, path = ""): ProtoMessage {
    if (json === null || json === undefined) return {};
    if (!isJsonObject(json)) throw new JsonInputError(path, `expected an object for ${type.name}`);
    if (isAny(type)) return this.parseAny(json, path);
    const out: ProtoMessage = {};
    for (const [key, value] of Object.entries(json)) {
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
      if (!isJsonObject(value)) throw new JsonInputError(path, "expected an object");
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
      case "int64": {
        const n = parseInteger(value, kind.integer, path);
        return Long.fromString(n.toString(), kind.integer === "uint64");
      }
      case "int32":
        return Number(parseInteger(value, kind.integer, path));
      case "float":
        return parseFloatValue(value, path);
      case "bool":
        return parseBool(value, path);
      case "string":
        if (typeof value !== "string") throw new JsonInputError(path, "expected a string");
        if (kind.custom === "Dec") return wrap(path, () => decToWire(value));
        if (kind.custom === "Int" && !INT64_TEXT.test(value) && value !== "") throw new JsonInputError(path, `"${value}" is not an integer`);
        if (kind.custom === "Int" && intTextOutOfRange(value)) throw new JsonInputError(path, "integer out of range (more than 256 bits)");
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
    if (typeof typeUrl !== "string") throw new JsonInputError(join(path, "@type"), 'an Any needs a "@type"');
    const inner = wrap(join(path, "@type"), () => resolveTypeUrl(this.root, typeUrl));
    const body = fullNameOf(inner).startsWith(".google.protobuf.") ? json.value : withoutType(json);
    const message = this.parseValue({ kind: "message", type: inner }, body, path) as ProtoMessage;
    return { type_url: profileTypeUrl(typeUrl), value: inner.encode(message).finish() };
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

function parseInteger(value: unknown, type: IntegerType, path: string): bigint {
  // a number in another form than an integer's ("1e-999", "200e3", "2.0") is refused as its text is
  if (value instanceof JsonNumberText) return wrap(path, () => parseIntegerText(String(value), type));
  if (typeof value !== "string" && typeof value !== "number") throw new JsonInputError(path, `expected a ${type} (a decimal string or a number)`);
  return wrap(path, () => (typeof value === "number" ? integerFromNumber(value, type) : parseIntegerText(value, type)));
}

/** A float as a JSON number, or a string in decimal or exponent form, "NaN", "Infinity" or "-Infinity" (proto3 JSON). */
function parseFloatValue(value: unknown, path: string): number {
  if (typeof value === "number") return value;
  if (value instanceof JsonNumberText) return Number(value);
  if (typeof value === "string" && (isDecimalFloatText(value, false) || ["NaN", "Infinity", "-Infinity"].includes(value))) return Number(value);
  throw new JsonInputError(path, `"${String(value)}" is not a number`);
}

function parseBool(value: unknown, path: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string") {
    if (["true", "1", "t", "T", "TRUE", "True"].includes(value)) return true;
    if (["false", "0", "f", "F", "FALSE", "False"].includes(value)) return false;
  }
  throw new JsonInputError(path, `"${String(value)}" is not a boolean`);
}

function parseBytes(value: unknown, path: string): Uint8Array {
  if (typeof value !== "string") throw new JsonInputError(path, "expected a base64 string");
  return wrap(path, () => parseBase64(value));
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
