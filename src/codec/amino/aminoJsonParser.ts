import protobuf from "protobufjs";
import Long from "long";
import { decToWire } from "../decimal.js";
import { fieldKind, isAny, isDuration, isTimestamp, typeName, type FieldKind } from "../fieldKinds.js";
import type { ProtoMessage } from "../json/renderProto3.js";
import { parseTimestamp } from "../wellKnownTime.js";
import { typeUrlOf, lookupType, neutralTypeName } from "../typeRegistry.js";
import type { AminoTransforms, AminoTypeRules } from "../../tables/aminoTransforms.js";
import { IntegerTextError, parseIntegerText } from "../scalarText.js";
import { intTextOutOfRange } from "../sdkNumberRange.js";
import { isJsonObject as isObject } from "../json/jsonNumberForms.js";

/** Amino JSON that does not fit its type; `path` names the field ("msg[0].value.amount"). */
export class AminoJsonError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(path ? `${path}: ${detail}` : detail);
  }
}

/** A message type whose amino name is unknown (IBC core Msgs have none). */
export class UnknownAminoTypeError extends AminoJsonError {}

const SIGNED_INT = /^-?(0|[1-9]\d*)$/;
const INT64 = new Set(["int64", "sint64", "sfixed64"]);

/**
 * Reads amino JSON into protobufjs message values, the inverse of
 * AminoJsonRenderer: 64-bit integers must be quoted (as go-amino requires),
 * Dec accepts up to 18 fraction digits, times are RFC 3339 in UTC, durations
 * nanosecond strings, interface values {"type", "value"} by amino name (also
 * the input aliases of amino-transforms.yaml). Unknown keys are ignored and
 * missing keys keep their zero value, as go-amino does.
 */
export class AminoJsonParser {
  constructor(
    readonly root: protobuf.Root,
    readonly transforms: AminoTransforms,
  ) {}

  /** The proto type of an amino name, or UnknownAminoTypeError. */
  typeOf(aminoName: unknown, path: string): protobuf.Type {
    const name = typeof aminoName === "string" ? this.transforms.typesByName.get(aminoName) : undefined;
    if (!name) throw new UnknownAminoTypeError(path, `unknown amino type ${JSON.stringify(aminoName ?? null)}`);
    return lookupType(this.root, name);
  }

  /** {type, value} → the proto type and its message. */
  parseWrapped(json: unknown, path: string): { type: protobuf.Type; msg: ProtoMessage } {
    if (!isObject(json)) throw new AminoJsonError(path, 'expected {"type", "value"}');
    const type = this.typeOf(json.type, join(path, "type"));
    const valuePath = join(path, "value");
    if (this.transforms.rawKeyTypes.has(typeName(type))) return { type, msg: { key: parseBytes(json.value, valuePath) } };
    return { type, msg: this.parse(type, json.value ?? {}, valuePath) };
  }

  /** {type, value} → google.protobuf.Any of the registered type. */
  parseAny(json: unknown, path: string): ProtoMessage {
    const { type, msg } = this.parseWrapped(json, path);
    return { type_url: typeUrlOf(type), value: type.encode(type.fromObject(msg)).finish() };
  }

  parse(type: protobuf.Type, json: unknown, path = ""): ProtoMessage {
    if (!isObject(json)) throw new AminoJsonError(path, `expected an object for ${type.name}`);
    const rules = this.transforms.types.get(typeName(type));
    const out: ProtoMessage = {};
    this.readFields(type, json, rules, out, path);
    return out;
  }

  private readFields(type: protobuf.Type, json: Record<string, unknown>, rules: AminoTypeRules | undefined, out: ProtoMessage, path: string): void {
    for (const field of type.fieldsArray) {
      if (rules?.drop.has(field.name)) continue;
      if (rules?.flatten.has(field.name)) {
        const inner: ProtoMessage = {};
        this.readFields(field.resolvedType as protobuf.Type, json, rules, inner, path);
        out[field.name] = inner;
        continue;
      }
      const key = rules?.rename.get(field.name) ?? field.name;
      if (rules?.fixed.has(key)) continue;
      const value = json[key] ?? aliasValue(type, key, json);
      if (value === undefined || value === null) continue;
      const fieldPath = join(path, key);
      if (field.repeated) {
        if (!Array.isArray(value)) throw new AminoJsonError(fieldPath, "expected an array");
        out[field.name] = value.map((item, i) => this.value(field, item, `${fieldPath}[${i}]`, rules));
      } else {
        out[field.name] = this.value(field, value, fieldPath, rules);
      }
    }
  }

  private value(field: protobuf.Field, value: unknown, path: string, rules: AminoTypeRules | undefined): unknown {
    const kind: FieldKind = fieldKind(field);
    switch (kind.kind) {
      case "int64": {
        const signed = INT64.has(field.type);
        if (typeof value === "number" && rules?.numbers.has(field.name) && Number.isSafeInteger(value)) value = String(value);
        if (typeof value !== "string") throw new AminoJsonError(path, "Amino:JSON int/int64/uint/uint64 expects quoted values for javascript numeric support");
        const type = signed ? "int64" : "uint64";
        try {
          return Long.fromString(parseIntegerText(value, type).toString(), !signed);
        } catch (err) {
          if (err instanceof IntegerTextError)
            throw new AminoJsonError(path, err.reason === "range" ? `'${value}' is out of range` : `'${value}' is not a valid ${type}`);
          throw err;
        }
      }
      case "int32":
      case "enum": {
        // int32 is a JSON number in amino; a quoted number is accepted too, and an enum's name
        if (kind.kind === "enum" && typeof value === "string" && Object.hasOwn(kind.type.values, value)) return kind.type.values[value];
        const n = typeof value === "string" && SIGNED_INT.test(value) ? Number(value) : value;
        if (typeof n !== "number" || !Number.isInteger(n)) throw new AminoJsonError(path, `expected an integer, got ${JSON.stringify(value)}`);
        if (field.type.startsWith("u") && n < 0) throw new AminoJsonError(path, `${n} is negative`);
        return n;
      }
      case "float":
        if (typeof value !== "number") throw new AminoJsonError(path, "expected a number");
        return value;
      case "bool":
        if (typeof value !== "boolean") throw new AminoJsonError(path, "expected true or false");
        return value;
      case "string":
        return customValue(kind.custom, value, path);
      case "bytes": {
        if (kind.custom) return new TextEncoder().encode(customValue(kind.custom, value, path));
        if (rules?.hex.has(field.name)) {
          if (typeof value !== "string" || !/^([0-9a-fA-F]{2})*$/.test(value)) throw new AminoJsonError(path, "expected hex");
          return new Uint8Array(Buffer.from(value, "hex"));
        }
        return parseBytes(value, path);
      }
      case "message": {
        if (isTimestamp(kind.type)) {
          if (typeof value !== "string" || !value.endsWith("Z")) throw new AminoJsonError(path, "expected a time in RFC 3339 ending in Z");
          try {
            return parseTimestamp(value);
          } catch (err) {
            throw new AminoJsonError(path, (err as Error).message);
          }
        }
        if (isDuration(kind.type)) {
          if (typeof value !== "string" || !SIGNED_INT.test(value)) throw new AminoJsonError(path, "expected a duration in nanoseconds, quoted");
          if (value.length > 20) throw new AminoJsonError(path, `'${value.slice(0, 24)}…' is out of range`);
          const ns = BigInt(value);
          return { seconds: Long.fromString((ns / 1_000_000_000n).toString()), nanos: Number(ns % 1_000_000_000n) };
        }
        if (isAny(kind.type)) return this.parseAny(value, path);
        return this.parse(kind.type, value, path);
      }
    }
  }
}

function customValue(custom: "Dec" | "Int" | undefined, value: unknown, path: string): string {
  if (typeof value !== "string") throw new AminoJsonError(path, "expected a string");
  const text = value.trim();
  if (custom === "Dec") {
    try {
      return decToWire(text);
    } catch (err) {
      throw new AminoJsonError(path, (err as Error).message);
    }
  }
  if (custom === "Int" && !SIGNED_INT.test(text)) throw new AminoJsonError(path, `'${value}' is not a valid integer`);
  if (custom === "Int" && intTextOutOfRange(text)) throw new AminoJsonError(path, "integer out of range (more than 256 bits)");
  return custom ? text : value;
}

function parseBytes(value: unknown, path: string): Uint8Array {
  if (typeof value !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw new AminoJsonError(path, "expected a base64 string");
  return new Uint8Array(Buffer.from(value, "base64"));
}

/**
 * The legacy multisig key is written {"threshold": "2", "pubkeys": [...]} by
 * SDK v0.42.2+ and third-party clients, {"threshold": 2, "public_keys": [...]}
 * by v0.41; both are read.
 */
function aliasValue(type: protobuf.Type, key: string, json: Record<string, unknown>): unknown {
  if (neutralTypeName(type) === "core.crypto.multisig.LegacyAminoPubKey" && key === "public_keys") return json.pubkeys;
  return undefined;
}

function join(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}
