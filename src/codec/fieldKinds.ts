import protobuf from "protobufjs";
import type { IntegerType } from "./scalarText.js";

/** What the renderers and the parser need to know about one proto field. */
export type FieldKind =
  /** `integer`: the range and sign the field's proto type allows (sint64, fixed64… map to int64, uint64…). */
  | { kind: "int64"; integer: "int64" | "uint64" }
  | { kind: "int32"; integer: "int32" | "uint32" }
  | { kind: "float" }
  | { kind: "bool" }
  | { kind: "string"; custom?: "Dec" | "Int" }
  /** `custom`: a gogoproto Dec/Int carried in a bytes field (its wire form is the text, as in a string field). */
  | { kind: "bytes"; custom?: "Dec" | "Int" }
  | { kind: "enum"; type: protobuf.Enum }
  | { kind: "message"; type: protobuf.Type };

const INTEGERS: Record<string, IntegerType> = {
  int64: "int64",
  sint64: "int64",
  sfixed64: "int64",
  uint64: "uint64",
  fixed64: "uint64",
  int32: "int32",
  sint32: "int32",
  sfixed32: "int32",
  uint32: "uint32",
  fixed32: "uint32",
};

export function fieldKind(field: protobuf.Field): FieldKind {
  if (field.resolvedType instanceof protobuf.Type) return { kind: "message", type: field.resolvedType };
  if (field.resolvedType instanceof protobuf.Enum) return { kind: "enum", type: field.resolvedType };
  const integer = INTEGERS[field.type];
  if (integer === "int64" || integer === "uint64") return { kind: "int64", integer };
  if (integer === "int32" || integer === "uint32") return { kind: "int32", integer };
  if (field.type === "double" || field.type === "float") return { kind: "float" };
  if (field.type === "bool") return { kind: "bool" };
  if (field.type === "bytes") return { kind: "bytes", custom: customType(field) };
  return { kind: "string", custom: customType(field) };
}

/** The gogoproto customtype of a string or bytes field ("Dec" or "Int"), if any. */
export function customType(field: protobuf.Field): "Dec" | "Int" | undefined {
  const custom: unknown = field.options?.["(gogoproto.customtype)"];
  if (typeof custom !== "string") return undefined;
  if (custom.endsWith("Dec")) return "Dec";
  if (custom.endsWith("Int")) return "Int";
  return undefined;
}

/** gogoproto nullable=false: the Go field is a value, so JSON shows it even when unset. */
export function isNonNullable(field: protobuf.Field): boolean {
  return field.options?.["(gogoproto.nullable)"] === false;
}

/**
 * protobufjs computes `fullName` on every read (it walks the parents and joins
 * their names); the renderers and the parser ask it of every message they meet,
 * so it is kept per type. A type's name and place do not change once the root is built.
 */
const fullNames = new WeakMap<protobuf.ReflectionObject, string>();

export function fullNameOf(type: protobuf.ReflectionObject): string {
  let name = fullNames.get(type);
  if (name === undefined) {
    name = type.fullName;
    fullNames.set(type, name);
  }
  return name;
}

export function isTimestamp(type: protobuf.Type): boolean {
  return fullNameOf(type) === ".google.protobuf.Timestamp";
}

export function isDuration(type: protobuf.Type): boolean {
  return fullNameOf(type) === ".google.protobuf.Duration";
}

export function isAny(type: protobuf.Type): boolean {
  return fullNameOf(type) === ".google.protobuf.Any";
}

/** Full name without the leading dot, as used in type URLs and method paths. */
export function typeName(type: protobuf.ReflectionObject): string {
  return type.fullName.replace(/^\./, "");
}
