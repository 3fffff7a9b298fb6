import protobuf from "protobufjs";
import Long from "long";
import { decFromWire } from "../decimal.js";
import { fieldKind, isAny, isDuration, isNonNullable, isTimestamp, typeName } from "../fieldKinds.js";
import type { JsonValue, ProtoMessage } from "../json/renderProto3.js";
import { resolveTypeUrl } from "../typeRegistry.js";
import type { AminoTransforms } from "../../tables/aminoTransforms.js";

/** A value that has no amino encoding (a type without an amino name, such as the IBC core Msgs). */
export class NoAminoEncodingError extends Error {}

/** Public key types whose amino JSON value is the raw key bytes, base64. */
const RAW_KEY_TYPES = new Set(["core.crypto.secp256k1.PubKey", "core.crypto.ed25519.PubKey"]);

/**
 * Amino JSON as go-amino writes the SDK's types: proto field names, fields
 * omitted when empty (omitempty) unless amino-transforms.yaml keeps them,
 * 64-bit ints as strings, 32-bit ints and enums as numbers, Dec with 18
 * decimals, times as RFC 3339 with trimmed nanoseconds, durations as
 * nanosecond strings, Any as {"type": amino name, "value": ...}.
 */
export class AminoJsonRenderer {
  constructor(
    private readonly root: protobuf.Root,
    private readonly transforms: AminoTransforms,
  ) {}

  /** The amino name of a proto type, or a NoAminoEncodingError. */
  aminoName(fullName: string): string {
    const name = this.transforms.names.get(fullName);
    if (!name) throw new NoAminoEncodingError(`Cannot encode unregistered concrete type ${fullName}: it has no amino encoding`);
    return name;
  }

  /** {type, value} of a message of a registered type. */
  wrapped(type: protobuf.Type, msg: ProtoMessage): { type: string; value: JsonValue } {
    const name = typeName(type);
    return { type: this.aminoName(name), value: RAW_KEY_TYPES.has(name) ? base64(msg.key) : this.render(type, msg) };
  }

  renderAny(any: ProtoMessage): { type: string; value: JsonValue } {
    const inner = resolveTypeUrl(this.root, String(any.type_url ?? ""));
    return this.wrapped(inner, inner.decode((any.value as Uint8Array) ?? new Uint8Array()) as unknown as ProtoMessage);
  }

  render(type: protobuf.Type, msg: ProtoMessage): { [key: string]: JsonValue } {
    const keep = this.transforms.keep.get(typeName(type));
    const out: { [key: string]: JsonValue } = {};
    for (const field of type.fieldsArray) {
      const value = msg[field.name];
      const kind = fieldKind(field);
      const always = keep?.has(field.name) || (kind.kind === "string" && kind.custom !== undefined && isNonNullable(field));
      if (isEmpty(value) && !always) continue;
      out[field.name] = this.renderField(field, value);
    }
    return out;
  }

  private renderField(field: protobuf.Field, value: unknown): JsonValue {
    if (field.repeated) return ((value ?? []) as unknown[]).map((item) => this.renderValue(field, item));
    return this.renderValue(field, value);
  }

  private renderValue(field: protobuf.Field, value: unknown): JsonValue {
    const kind = fieldKind(field);
    switch (kind.kind) {
      case "int64":
        return value == null ? "0" : String(value instanceof Long ? value.toString() : value);
      case "int32":
      case "float":
      case "enum":
        return (value as number) ?? 0;
      case "bool":
        return (value as boolean) ?? false;
      case "string": {
        const text = (value as string) ?? "";
        if (kind.custom === "Dec") return decFromWire(text);
        if (kind.custom === "Int") return text === "" ? "0" : text;
        return text;
      }
      case "bytes":
        return base64(value);
      case "message": {
        const msg = (value ?? {}) as ProtoMessage;
        if (isTimestamp(kind.type)) return aminoTime(msg);
        if (isDuration(kind.type)) return aminoDuration(msg);
        if (isAny(kind.type)) return this.renderAny(msg);
        return this.render(kind.type, msg);
      }
    }
  }
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === "" || value === 0 || value === false) return true;
  if (Long.isLong(value)) return (value as Long).isZero();
  if (Array.isArray(value) || value instanceof Uint8Array) return value.length === 0;
  return false;
}

function base64(value: unknown): string {
  return Buffer.from((value as Uint8Array) ?? new Uint8Array()).toString("base64");
}

/** Go's RFC3339Nano in UTC: trailing zeros of the fraction trimmed. */
function aminoTime(msg: ProtoMessage): string {
  const seconds = Number(msg.seconds ?? 0);
  const nanos = Number(msg.nanos ?? 0);
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  const fraction = nanos ? "." + String(nanos).padStart(9, "0").replace(/0+$/, "") : "";
  return `${base}${fraction}Z`;
}

function aminoDuration(msg: ProtoMessage): string {
  return (BigInt(String(msg.seconds ?? 0)) * 1_000_000_000n + BigInt(Number(msg.nanos ?? 0))).toString();
}

/**
 * JSON text as Go's encoding/json writes it: compact, with <, >, & and
 * U+2028/U+2029 escaped; with `sorted`, object keys sorted at every depth (MustSortJSON).
 */
export function goJson(value: unknown, sorted = false): string {
  const text = JSON.stringify(sorted ? sortKeys(value) : value);
  return text
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
  }
  return value;
}
