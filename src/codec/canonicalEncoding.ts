import protobuf from "protobufjs";
import { resolveTypeUrl } from "./typeRegistry.js";
import { isAny } from "./fieldKinds.js";

/** Bytes that decode, but are not the one deterministic encoding of what they carry (ADR-027). */
export class NonCanonicalEncodingError extends Error {}

const VARINT_SCALARS = new Set(["int32", "uint32", "sint32", "int64", "uint64", "sint64", "bool"]);
const FIXED64_SCALARS = new Set(["fixed64", "sfixed64", "double"]);
const FIXED32_SCALARS = new Set(["fixed32", "sfixed32", "float"]);
const WIRE = { varint: 0, fixed64: 1, delimited: 2, fixed32: 5 } as const;
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Refuses bytes that are not in the deterministic encoding of ADR-027, the
 * encoding the real system's clients write: fields once each and in ascending
 * order (a repeated message, string or bytes field as one run), default values
 * left out, repeated numbers packed, varints no longer than needed, booleans
 * 0 or 1, strings valid UTF-8; recursively through nested messages and the
 * value of each Any. Fields the type does not declare are skipped, and
 * type URLs are taken as found: both are rejectUnknownFields' concern. Without this, one signed content has many
 * encodings, so a relayer can change a transaction's hash where the
 * signature does not cover its bytes.
 */
export function rejectNonCanonical(root: protobuf.Root, type: protobuf.Type, bytes: Uint8Array): void {
  const where = type.fullName.slice(1);
  let pos = 0;
  let previous = 0;
  while (pos < bytes.length) {
    const tag = readVarint(bytes, pos, where);
    pos = tag.end;
    const number = Number(tag.value >> 3n);
    const wire = Number(tag.value & 7n);
    const field = type.fieldsById[number];
    const repeatsAsRun = field !== undefined && field.repeated && wire === WIRE.delimited && !isPackable(field);
    if (number < previous || (number === previous && !repeatsAsRun))
      fail(where, `field ${number} after field ${previous}: fields must come once each, in ascending order`);
    previous = number;
    if (wire === WIRE.varint) {
      const value = readVarint(bytes, pos, where);
      pos = value.end;
      if (field) checkVarintField(field, value, where);
    } else if (wire === WIRE.fixed64 || wire === WIRE.fixed32) {
      const size = wire === WIRE.fixed64 ? 8 : 4;
      if (pos + size > bytes.length) fail(where, `field ${number} is truncated`);
      if (field) checkFixedField(field, bytes.subarray(pos, pos + size), wire, where);
      pos += size;
    } else if (wire === WIRE.delimited) {
      const length = readVarint(bytes, pos, where);
      pos = length.end;
      const end = pos + Number(length.value);
      if (end > bytes.length) fail(where, `field ${number} is truncated`);
      if (field) checkDelimitedField(root, field, bytes.subarray(pos, end), where);
      pos = end;
    } else {
      fail(where, `field ${number} has wire type ${wire}, which proto3 does not use`);
    }
  }
}

function checkVarintField(field: protobuf.Field, value: { value: bigint; length: number }, where: string): void {
  const type = scalarType(field);
  if (type === undefined || !(VARINT_SCALARS.has(type) || type === "enum")) fail(where, `field ${field.id} (${field.type}) is not a varint`);
  if (field.repeated) fail(where, `repeated field ${field.id} must be packed`);
  if (value.value === 0n && !hasPresence(field)) fail(where, `field ${field.id} holds its default value, which must be left out`);
  checkVarintRange(type, value, field.id, where);
}

function checkVarintRange(type: string, value: { value: bigint; length: number }, id: number, where: string): void {
  if (type === "bool" && value.value > 1n) fail(where, `field ${id} (bool) must be 0 or 1`);
  if (type === "int32" || type === "enum") {
    // a negative int32 is sign-extended to ten bytes; anything else must fit 32 bits
    const negative = value.value >= 2n ** 64n - 2n ** 31n;
    if (!negative && value.value >= 2n ** 31n) fail(where, `field ${id} (${type}) is out of the 32-bit range`);
  } else if ((type === "uint32" || type === "sint32") && value.value >= 2n ** 32n) {
    fail(where, `field ${id} (${type}) is out of the 32-bit range`);
  }
}

function checkFixedField(field: protobuf.Field, value: Uint8Array, wire: number, where: string): void {
  const type = scalarType(field);
  const expected = wire === WIRE.fixed64 ? FIXED64_SCALARS : FIXED32_SCALARS;
  if (type === undefined || !expected.has(type)) fail(where, `field ${field.id} (${field.type}) has the wrong wire type`);
  if (field.repeated) fail(where, `repeated field ${field.id} must be packed`);
  if (value.every((b) => b === 0) && !hasPresence(field)) fail(where, `field ${field.id} holds its default value, which must be left out`);
}

function checkDelimitedField(root: protobuf.Root, field: protobuf.Field, value: Uint8Array, where: string): void {
  if (field.map) return; // maps have no deterministic order (ADR-027 leaves them out); no tx type uses one
  const nested = field.resolvedType;
  if (nested instanceof protobuf.Type) {
    if (isAny(nested)) checkAny(root, value);
    else rejectNonCanonical(root, nested, value);
    return;
  }
  if (isPackable(field)) {
    if (!field.repeated) fail(where, `field ${field.id} (${field.type}) is not length-delimited`);
    if (value.length === 0) fail(where, `field ${field.id} is an empty packed list, which must be left out`);
    checkPacked(field, value, where);
    return;
  }
  if (value.length === 0 && !field.repeated && !hasPresence(field)) fail(where, `field ${field.id} holds its default value, which must be left out`);
  if (field.type === "string") {
    try {
      UTF8.decode(value);
    } catch {
      fail(where, `field ${field.id} is not valid UTF-8`);
    }
  }
}

function checkPacked(field: protobuf.Field, value: Uint8Array, where: string): void {
  const type = scalarType(field)!;
  if (FIXED64_SCALARS.has(type) || FIXED32_SCALARS.has(type)) {
    if (value.length % (FIXED64_SCALARS.has(type) ? 8 : 4) !== 0) fail(where, `packed field ${field.id} has a partial element`);
    return;
  }
  for (let pos = 0; pos < value.length;) {
    const element = readVarint(value, pos, where);
    checkVarintRange(type, element, field.id, where);
    pos = element.end;
  }
}

function checkAny(root: protobuf.Root, bytes: Uint8Array): void {
  const anyType = root.lookupType(".google.protobuf.Any");
  rejectNonCanonical(root, anyType, bytes);
  const any = anyType.decode(bytes) as unknown as { type_url?: string; value?: Uint8Array };
  if (!any.type_url) return;
  rejectNonCanonical(root, resolveTypeUrl(root, any.type_url), any.value ?? new Uint8Array());
}

/** A varint and its length in bytes; refuses one longer than needed or above 64 bits. */
function readVarint(bytes: Uint8Array, start: number, where: string): { value: bigint; length: number; end: number } {
  let value = 0n;
  let pos = start;
  for (;;) {
    if (pos >= bytes.length) fail(where, "truncated varint");
    if (pos - start === 10) fail(where, "varint longer than ten bytes");
    const byte = bytes[pos++]!;
    value |= BigInt(byte & 0x7f) << BigInt(7 * (pos - start - 1));
    if ((byte & 0x80) === 0) break;
  }
  const length = pos - start;
  if (length > 1 && bytes[pos - 1] === 0) fail(where, "varint longer than needed");
  if (value >= 2n ** 64n) fail(where, "varint above 64 bits");
  return { value, length, end: pos };
}

/** The scalar type of a field ("enum" for an enum), undefined for a message. */
function scalarType(field: protobuf.Field): string | undefined {
  if (field.resolvedType instanceof protobuf.Enum) return "enum";
  if (field.resolvedType instanceof protobuf.Type) return undefined;
  return field.type;
}

function isPackable(field: protobuf.Field): boolean {
  const type = scalarType(field);
  return type !== undefined && type !== "string" && type !== "bytes";
}

/** Oneof members and proto3 `optional` fields are written even when they hold the default value. */
function hasPresence(field: protobuf.Field): boolean {
  return field.partOf !== null && field.partOf !== undefined;
}

function fail(where: string, why: string): never {
  throw new NonCanonicalEncodingError(`non-deterministic encoding of ${where}: ${why}`);
}
