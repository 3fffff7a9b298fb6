import protobuf from "protobufjs";
import Long from "long";
import { decFromWire } from "../decimal.js";
import { fieldKind, isAny, isDuration, isNonNullable, isTimestamp, typeName } from "../fieldKinds.js";
import type { JsonValue, ProtoMessage } from "../json/renderProto3.js";
import { resolveTypeUrl } from "../typeRegistry.js";
import type { AminoTransforms, AminoTypeRules } from "../../tables/aminoTransforms.js";
import { stdTxFromTx } from "./stdTx.js";
import { fieldText } from "../fieldText.js";
import { names } from "../../names/activeNames.js";

/** A value that has no amino encoding (a type without an amino name, such as the IBC core Msgs). */
export class NoAminoEncodingError extends Error {}

const NO_RULES: AminoTypeRules = {
  keep: new Set(),
  nulls: new Set(),
  drop: new Set(),
  rename: new Map(),
  hex: new Set(),
  ints: new Set(),
  numbers: new Set(),
  flatten: new Set(),
  fixed: new Map(),
};

type JsonObject = { [key: string]: JsonValue };

/**
 * Amino JSON as go-amino writes the SDK's types: proto field names, fields
 * omitted when empty (omitempty, a message when all its fields are empty)
 * unless amino-transforms.yaml keeps them, 64-bit ints as strings, 32-bit
 * ints and enums as numbers, Dec with 18 decimals, times as RFC 3339 with
 * trimmed nanoseconds, durations as nanosecond strings, Any as
 * {"type": amino name, "value": ...}; plus the per-type rules of
 * amino-transforms.yaml (dropped, renamed, hex, flattened fields, StdTx).
 */
export class AminoJsonRenderer {
  constructor(
    readonly root: protobuf.Root,
    readonly transforms: AminoTransforms,
  ) {}

  /** The amino name of a proto type, or a NoAminoEncodingError. */
  aminoName(fullName: string): string {
    const name = this.transforms.names.get(names().protoName(fullName));
    if (!name) throw new NoAminoEncodingError(`Cannot encode unregistered concrete type ${fullName}: it has no amino encoding`);
    return name;
  }

  /** {type, value} of a message of a registered type. */
  wrapped(type: protobuf.Type, msg: ProtoMessage): { type: string; value: JsonValue } {
    const name = typeName(type);
    const aminoName = this.aminoName(name);
    return { type: aminoName, value: this.transforms.rawKeyTypes.has(name) ? base64(msg.key) : this.render(type, msg) };
  }

  renderAny(any: ProtoMessage): { type: string; value: JsonValue } {
    const inner = resolveTypeUrl(this.root, fieldText(any.type_url));
    return this.wrapped(inner, inner.decode((any.value as Uint8Array) ?? new Uint8Array()));
  }

  /**
   * A value at the top level of an amino MarshalJSON call (a legacy result):
   * a message of a registered type is wrapped as {type, value}.
   */
  renderTop(type: protobuf.Type, msg: ProtoMessage): JsonValue {
    if (isAny(type)) return this.renderAny(msg);
    return this.transforms.names.has(typeName(type)) ? this.wrapped(type, msg) : this.render(type, msg);
  }

  render(type: protobuf.Type, msg: ProtoMessage): JsonObject {
    const rules = this.rulesOf(type);
    if (rules.as === "std-tx") return stdTxFromTx(this, msg) as unknown as JsonObject;
    const out: JsonObject = {};
    this.renderFields(type, msg ?? {}, rules, out);
    for (const [key, value] of rules.fixed) out[key] = value as JsonValue;
    return out;
  }

  /** One field's value as its owner type's rules write it (also for a field picked as a legacy result). */
  renderField(owner: protobuf.Type, field: protobuf.Field, value: unknown): JsonValue {
    const rules = this.rulesOf(owner);
    if (isEmpty(field, value)) {
      if (rules.nulls.has(field.name)) return null;
      if (field.repeated) return [];
    }
    return this.fieldValue(field, value, rules);
  }

  rulesOf(type: protobuf.Type): AminoTypeRules {
    return this.transforms.types.get(typeName(type)) ?? NO_RULES;
  }

  private renderFields(type: protobuf.Type, msg: ProtoMessage, rules: AminoTypeRules, out: JsonObject): void {
    for (const field of type.fieldsArray) {
      const name = field.name;
      if (rules.drop.has(name)) continue;
      const value = msg[name];
      if (rules.flatten.has(name)) {
        // The field's own fields are written in its place, under the owner's rules.
        this.renderFields(field.resolvedType as protobuf.Type, (value ?? {}) as ProtoMessage, rules, out);
        continue;
      }
      const key = rules.rename.get(name) ?? name;
      if (isEmpty(field, value)) {
        if (rules.nulls.has(name)) out[key] = null;
        else if (rules.keep === "all" || rules.keep.has(name) || rules.fixed.has(key) || alwaysWritten(field)) out[key] = this.emptyValue(field, rules);
        continue;
      }
      out[key] = this.fieldValue(field, value, rules);
    }
  }

  /** What a field without omitempty shows when it holds nothing. */
  private emptyValue(field: protobuf.Field, rules: AminoTypeRules): JsonValue {
    if (field.repeated) return [];
    const kind = fieldKind(field);
    if (kind.kind === "message") {
      if (isTimestamp(kind.type)) return aminoTime({});
      if (isDuration(kind.type)) return "0";
      // a nil pointer is null; a value struct shows its (empty) fields
      return isNonNullable(field) && !isAny(kind.type) ? this.render(kind.type, {}) : null;
    }
    return this.scalarValue(field, undefined, rules);
  }

  private fieldValue(field: protobuf.Field, value: unknown, rules: AminoTypeRules): JsonValue {
    if (field.repeated) return ((value ?? []) as unknown[]).map((item) => this.scalarValue(field, item, rules));
    return this.scalarValue(field, value, rules);
  }

  private scalarValue(field: protobuf.Field, value: unknown, rules: AminoTypeRules): JsonValue {
    const kind = fieldKind(field);
    switch (kind.kind) {
      case "int64": {
        const text = value == null ? "0" : fieldText(Long.isLong(value) ? value.toString() : value);
        return rules.numbers.has(field.name) ? Number(text) : text;
      }
      case "int32":
      case "float":
      case "enum":
        return (value as number) ?? 0;
      case "bool":
        return (value as boolean) ?? false;
      case "string":
        return customText(kind.custom, (value as string) ?? "");
      case "bytes":
        if (kind.custom)
          return customText(kind.custom, typeof value === "string" ? value : new TextDecoder().decode((value as Uint8Array) ?? new Uint8Array()));
        if (rules.hex.has(field.name))
          return Buffer.from((value as Uint8Array) ?? new Uint8Array())
            .toString("hex")
            .toUpperCase();
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

function customText(custom: "Dec" | "Int" | undefined, text: string): string {
  if (custom === "Dec") return decFromWire(text);
  if (custom === "Int") return text === "" ? "0" : text;
  return text;
}

/**
 * gogoproto nullable=false fields (value structs, slices, Int/Dec) get a json
 * tag without omitempty from the generator, so they are always written.
 */
function alwaysWritten(field: protobuf.Field): boolean {
  if (!isNonNullable(field)) return false;
  const kind = fieldKind(field);
  return field.repeated || kind.kind === "message" || ((kind.kind === "string" || kind.kind === "bytes") && kind.custom !== undefined);
}

/**
 * go-amino's omitempty test: zero scalars, empty strings, slices and bytes,
 * nil pointers, and value structs whose every field is empty. A time is
 * never empty once set (the unset times the SDK stores are 1970, not Go's zero time).
 */
function isEmpty(field: protobuf.Field, value: unknown): boolean {
  if (value === undefined || value === null || value === "" || value === 0 || value === false) return true;
  if (Long.isLong(value)) return value.isZero();
  if (Array.isArray(value) || value instanceof Uint8Array) return value.length === 0;
  if (field.repeated || alwaysWritten(field)) return false;
  const kind = fieldKind(field);
  if (kind.kind === "message" && typeof value === "object") return isEmptyMessage(kind.type, value as ProtoMessage);
  if (kind.kind === "int64" && typeof value === "string") return value === "0";
  return false;
}

function isEmptyMessage(type: protobuf.Type, msg: ProtoMessage): boolean {
  if (isTimestamp(type)) return false;
  if (isDuration(type)) return Number(msg.seconds ?? 0) === 0 && Number(msg.nanos ?? 0) === 0;
  if (isAny(type)) return !msg.type_url;
  return type.fieldsArray.every((f) => isEmpty(f, msg[f.name]));
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
  return (BigInt(fieldText(msg.seconds, "0")) * 1_000_000_000n + BigInt(Number(msg.nanos ?? 0))).toString();
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
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
