import protobuf from "protobufjs";
import { resolveTypeUrl, typeUrlOf, UnknownTypeUrlError } from "./typeRegistry.js";
import { isAny } from "./fieldKinds.js";

/** A field the message's type does not declare (codec/unknownproto in the real system). */
export class UnknownFieldError extends Error {}

/** Field numbers with bit 11 set are "non-critical": a receiver may skip them where allowed. */
const NON_CRITICAL_BIT = 1 << 10;

/**
 * Rejects bytes that carry fields their type does not declare, recursively
 * through nested messages and the contents of Any. With `allowNonCritical`,
 * unknown fields whose number has bit 11 set are let through (TxBody only).
 * Returns whether any was let through: a signature that does not cover the
 * exact bytes (LEGACY_AMINO_JSON) must then be refused.
 */
export function rejectUnknownFields(root: protobuf.Root, type: protobuf.Type, bytes: Uint8Array, allowNonCritical = false): boolean {
  const reader = protobuf.Reader.create(bytes);
  let skippedNonCritical = false;
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    const number = tag >>> 3;
    const wireType = tag & 7;
    const field = type.fieldsById[number];
    if (!field) {
      if (allowNonCritical && (number & NON_CRITICAL_BIT) !== 0) {
        reader.skipType(wireType);
        skippedNonCritical = true;
        continue;
      }
      throw new UnknownFieldError(`errUnknownField "${type.fullName.slice(1)}": {TagNum: ${number}, WireType: ${wireType}}`);
    }
    const nested = field.resolvedType;
    if (nested instanceof protobuf.Type && wireType === 2) {
      const inner = reader.bytes();
      const skipped = isAny(nested) ? checkAny(root, inner, allowNonCritical) : rejectUnknownFields(root, nested, inner, allowNonCritical);
      skippedNonCritical ||= skipped;
    } else {
      reader.skipType(wireType);
    }
  }
  return skippedNonCritical;
}

function checkAny(root: protobuf.Root, bytes: Uint8Array, allowNonCritical: boolean): boolean {
  const anyType = root.lookupType(".google.protobuf.Any");
  rejectUnknownFields(root, anyType, bytes, false);
  const any = anyType.decode(bytes) as unknown as { type_url?: string; value?: Uint8Array };
  if (!any.type_url) return false;
  const inner = resolveTypeUrl(root, any.type_url);
  // the registry resolves only the exact "/<full name>" form (no "type.googleapis.com/" or other prefixes)
  if (any.type_url !== typeUrlOf(inner)) throw new UnknownTypeUrlError(any.type_url);
  return rejectUnknownFields(root, inner, any.value ?? new Uint8Array(), allowNonCritical);
}
