import protobuf from "protobufjs";
import Long from "long";
import { decFromWire } from "../decimal.js";
import { formatDuration, formatTimestamp } from "../wellKnownTime.js";
import { fieldKind, fullNameOf, isAny, isDuration, isNonNullable, isTimestamp, type FieldKind } from "../fieldKinds.js";
import { resolveTypeUrl } from "../typeRegistry.js";

/** A decoded protobufjs message: fields by proto name, Long for 64-bit ints, Uint8Array for bytes. */
export type ProtoMessage = { [field: string]: unknown };
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const has = (msg: ProtoMessage, name: string) => Object.prototype.hasOwnProperty.call(msg, name) && msg[name] != null;

/**
 * proto3 JSON exactly as the real gateway writes it (gogo jsonpb with
 * EmitDefaults and OrigName): proto field names, every default emitted, an
 * unset message or bytes field is null, 64-bit ints are strings, bytes are
 * standard base64, enums are names, Any is "@type" plus the inline fields,
 * Timestamp and Duration are text, Dec fields have 18 fraction digits.
 */
export class Proto3JsonRenderer {
  constructor(private readonly root: protobuf.Root) {}

  render(type: protobuf.Type, msg: ProtoMessage): { [key: string]: JsonValue } {
    if (isAny(type)) return this.renderAny(msg);
    const out: { [key: string]: JsonValue } = {};
    for (const field of type.fieldsArray) {
      if (field.partOf && !has(msg, field.name)) continue; // unset oneof members are not shown
      out[field.name] = this.renderField(field, msg[field.name], has(msg, field.name));
    }
    return out;
  }

  private renderField(field: protobuf.Field, value: unknown, present: boolean): JsonValue {
    const kind = fieldKind(field);
    if (field instanceof protobuf.MapField) {
      const entries = Object.entries((value ?? {}) as Record<string, unknown>);
      return Object.fromEntries(entries.map(([k, v]) => [k, this.renderValue(kind, v, true, field)]));
    }
    if (field.repeated) {
      return ((value ?? []) as unknown[]).map((item) => this.renderValue(kind, item, true, field));
    }
    return this.renderValue(kind, value, present, field);
  }

  private renderValue(kind: FieldKind, value: unknown, present: boolean, field: protobuf.Field): JsonValue {
    switch (kind.kind) {
      case "int64":
        return present ? String(value instanceof Long ? value.toString() : value) : "0";
      case "int32":
      case "float":
        return present ? (value as number) : 0;
      case "bool":
        return present ? (value as boolean) : false;
      case "string": {
        const text = present ? (value as string) : "";
        if (kind.custom === "Dec") return decFromWire(text);
        if (kind.custom === "Int") return text === "" ? "0" : text;
        return text;
      }
      case "bytes":
        // sdk.Dec / sdk.Int in a bytes field: gogo jsonpb calls their MarshalJSON, so they show as numbers
        if (kind.custom)
          return this.renderValue({ kind: "string", custom: kind.custom }, present ? new TextDecoder().decode(value as Uint8Array) : "", true, field);
        // Go renders a nil []byte as null; gogo only sets it when the wire has it.
        return present ? Buffer.from(value as Uint8Array).toString("base64") : null;
      case "enum": {
        const number = present ? (value as number) : 0;
        return kind.type.valuesById[number] ?? number;
      }
      case "message":
        if (!present) {
          if (!isNonNullable(field)) return null;
          value = {};
        }
        return this.renderMessage(kind.type, value as ProtoMessage);
    }
  }

  private renderMessage(type: protobuf.Type, msg: ProtoMessage): JsonValue {
    if (isTimestamp(type)) return formatTimestamp(msg.seconds as Long, (msg.nanos as number) ?? 0);
    if (isDuration(type)) return formatDuration((msg.seconds as Long) ?? 0, (msg.nanos as number) ?? 0);
    return this.render(type, msg);
  }

  /** Any → {"@type": url, ...fields}; a well-known type inside an Any goes under "value". */
  private renderAny(any: ProtoMessage): { [key: string]: JsonValue } {
    const typeUrl = (any.type_url as string) ?? "";
    if (typeUrl === "") return {};
    const inner = resolveTypeUrl(this.root, typeUrl);
    const decoded = inner.decode((any.value as Uint8Array) ?? new Uint8Array()) as unknown as ProtoMessage;
    const rendered = this.renderMessage(inner, decoded);
    if (fullNameOf(inner).startsWith(".google.protobuf.")) return { "@type": typeUrl, value: rendered };
    return { "@type": typeUrl, ...(rendered as { [key: string]: JsonValue }) };
  }
}
