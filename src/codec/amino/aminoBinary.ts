import { createHash } from "node:crypto";
import protobuf from "protobufjs";
import { isAny, isDuration, isTimestamp, typeName } from "../fieldKinds.js";
import type { ProtoMessage } from "../json/renderProto3.js";
import { resolveTypeUrl, typeUrlOf } from "../typeRegistry.js";
import type { AminoTransforms } from "../../tables/aminoTransforms.js";
import { fieldText } from "../fieldText.js";

/** Bytes that are not the amino binary they claim to be. */
export class AminoBinaryError extends Error {}

/**
 * go-amino's prefix bytes of a registered name: SHA-256 of the name, leading
 * zero bytes skipped, 3 disambiguation bytes skipped, zero bytes skipped
 * again, then the next 4 bytes.
 */
export function aminoPrefix(name: string): Uint8Array {
  // node:crypto: every registered name is hashed when the legacy routes start
  const hash = createHash("sha256").update(name, "utf8").digest();
  let i = 0;
  while (hash[i] === 0) i++;
  i += 3;
  while (hash[i] === 0) i++;
  return Uint8Array.from(hash.subarray(i, i + 4));
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/**
 * Amino binary of the types the legacy family reads: registered concrete
 * types carry their 4 prefix bytes. The SDK's types are generated from
 * protobuf, so their amino struct encoding is the protobuf encoding except
 * for interface fields (an Any in protobuf): there amino writes the prefix of
 * the concrete type followed by its encoding. Transcoding rewrites those
 * fields in either direction.
 */
export class AminoBinaryCodec {
  private readonly byPrefix = new Map<string, protobuf.Type>();

  constructor(
    private readonly root: protobuf.Root,
    private readonly transforms: AminoTransforms,
  ) {
    for (const [name, type] of transforms.typesByName) {
      const found = root.lookup(type);
      if (found instanceof protobuf.Type) this.byPrefix.set(hex(aminoPrefix(name)), found);
    }
  }

  prefixOf(type: protobuf.Type): Uint8Array {
    const name = this.transforms.names.get(typeName(type));
    if (!name) throw new AminoBinaryError(`${typeName(type)} has no amino name`);
    return aminoPrefix(name);
  }

  /** The registered type the bytes start with (its prefix), and the rest. */
  splitPrefix(bytes: Uint8Array): { type: protobuf.Type; rest: Uint8Array } {
    if (bytes.length < 4) throw new AminoBinaryError("too short for amino prefix bytes");
    const type = this.byPrefix.get(hex(bytes.subarray(0, 4)));
    if (!type) throw new AminoBinaryError(`unknown amino prefix bytes ${hex(bytes.subarray(0, 4)).toUpperCase()}`);
    return { type, rest: bytes.subarray(4) };
  }

  /** Amino interface bytes (prefix + concrete encoding) → google.protobuf.Any values. */
  interfaceToAny(bytes: Uint8Array): ProtoMessage {
    const { type, rest } = this.splitPrefix(bytes);
    let value: Uint8Array;
    if (this.transforms.rawKeyTypes.has(typeName(type))) {
      // a key registered as a byte array: length-prefixed raw bytes → the key field of its proto message
      const reader = protobuf.Reader.create(rest);
      value = type.encode({ key: reader.bytes() }).finish();
    } else {
      value = this.structToProto(type, rest);
    }
    return { type_url: typeUrlOf(type), value };
  }

  /** google.protobuf.Any → amino interface bytes. */
  anyToInterface(any: ProtoMessage): Uint8Array {
    const type = resolveTypeUrl(this.root, fieldText(any.type_url));
    const value = (any.value as Uint8Array) ?? new Uint8Array();
    const body = this.transforms.rawKeyTypes.has(typeName(type))
      ? protobuf.Writer.create()
          .bytes((type.decode(value) as unknown as { key?: Uint8Array }).key ?? new Uint8Array())
          .finish()
      : this.protoToStruct(type, value);
    return concat(this.prefixOf(type), body);
  }

  /** Amino struct encoding of `type` → its protobuf encoding. */
  structToProto(type: protobuf.Type, bytes: Uint8Array): Uint8Array {
    return this.transcode(type, bytes, (field, inner) => (isAny(field) ? protoAny(this.interfaceToAny(inner)) : this.structToProto(field, inner)));
  }

  /** Protobuf encoding of `type` → its amino struct encoding. */
  protoToStruct(type: protobuf.Type, bytes: Uint8Array): Uint8Array {
    const Any = this.root.lookupType("google.protobuf.Any");
    return this.transcode(type, bytes, (field, inner) => (isAny(field) ? this.anyToInterface(Any.decode(inner)) : this.protoToStruct(field, inner)));
  }

  /** Copies the wire fields of `type`, rewriting every embedded message through `message`. */
  private transcode(type: protobuf.Type, bytes: Uint8Array, message: (type: protobuf.Type, bytes: Uint8Array) => Uint8Array): Uint8Array {
    type.resolveAll();
    const reader = protobuf.Reader.create(bytes);
    const writer = protobuf.Writer.create();
    try {
      while (reader.pos < reader.len) {
        const tag = reader.uint32();
        const id = tag >>> 3;
        const wireType = tag & 7;
        const field = type.fieldsById[id];
        if (wireType === 2) {
          const inner = reader.bytes();
          const resolved = field?.resolvedType;
          const rewritten = resolved instanceof protobuf.Type && !isWellKnownScalar(resolved) && needsTranscoding(resolved) ? message(resolved, inner) : inner;
          writer.uint32(tag).bytes(rewritten);
        } else if (wireType === 0) {
          writer.uint32(tag).uint64(reader.uint64());
        } else if (wireType === 1) {
          writer.uint32(tag).fixed64(reader.fixed64());
        } else if (wireType === 5) {
          writer.uint32(tag).fixed32(reader.fixed32());
        } else {
          throw new AminoBinaryError(`unsupported wire type ${wireType} in ${type.name}`);
        }
      }
    } catch (err) {
      if (err instanceof AminoBinaryError) throw err;
      throw new AminoBinaryError(`malformed ${type.name}: ${(err as Error).message}`);
    }
    return writer.finish();
  }
}

function isWellKnownScalar(type: protobuf.Type): boolean {
  return isTimestamp(type) || isDuration(type);
}

const transcodingNeeded = new Map<protobuf.Type, boolean>();

/** Whether a message type holds an Any anywhere below it. */
function needsTranscoding(type: protobuf.Type, seen = new Set<protobuf.Type>()): boolean {
  if (isAny(type)) return true;
  const known = transcodingNeeded.get(type);
  if (known !== undefined) return known;
  if (seen.has(type)) return false;
  seen.add(type);
  type.resolveAll();
  const result = type.fieldsArray.some((f) => f.resolvedType instanceof protobuf.Type && needsTranscoding(f.resolvedType, seen));
  transcodingNeeded.set(type, result);
  return result;
}

function protoAny(any: ProtoMessage): Uint8Array {
  const writer = protobuf.Writer.create();
  writer.uint32(10).string(String(any.type_url));
  const value = any.value as Uint8Array;
  if (value.length) writer.uint32(18).bytes(value);
  return writer.finish();
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** AminoMultisignature {BitArray *CompactBitArray = 1; Sigs [][]byte = 2} ↔ its parts. */
export interface Multisignature {
  bitarray: { extra_bits_stored: number; elems: Uint8Array };
  signatures: Uint8Array[];
}

export function decodeAminoMultisignature(bytes: Uint8Array): Multisignature {
  const reader = protobuf.Reader.create(bytes);
  const out: Multisignature = { bitarray: { extra_bits_stored: 0, elems: new Uint8Array() }, signatures: [] };
  try {
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if (tag === 10) {
        const inner = protobuf.Reader.create(reader.bytes());
        while (inner.pos < inner.len) {
          const innerTag = inner.uint32();
          if (innerTag === 8) out.bitarray.extra_bits_stored = inner.uint32();
          else if (innerTag === 18) out.bitarray.elems = inner.bytes();
          else inner.skipType(innerTag & 7);
        }
      } else if (tag === 18) {
        out.signatures.push(reader.bytes());
      } else {
        reader.skipType(tag & 7);
      }
    }
  } catch (err) {
    throw new AminoBinaryError(`malformed multisignature: ${(err as Error).message}`);
  }
  return out;
}

export function encodeAminoMultisignature(multi: Multisignature): Uint8Array {
  const bits = protobuf.Writer.create();
  if (multi.bitarray.extra_bits_stored) bits.uint32(8).uint32(multi.bitarray.extra_bits_stored);
  if (multi.bitarray.elems.length) bits.uint32(18).bytes(multi.bitarray.elems);
  const writer = protobuf.Writer.create();
  writer.uint32(10).bytes(bits.finish());
  for (const sig of multi.signatures) writer.uint32(18).bytes(sig);
  return writer.finish();
}
