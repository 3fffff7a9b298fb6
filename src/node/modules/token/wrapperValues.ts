import protobuf from "protobufjs";
import Long from "long";

/**
 * gogoproto's StringValue and UInt64Value, which the extension modules store
 * as index values (a symbol under its min unit, an NFT count under its denom).
 * Field 1 in both; proto3 leaves out a default value.
 */
export function encodeStringValue(value: string): Uint8Array {
  return value === "" ? new Uint8Array() : protobuf.Writer.create().uint32(0x0a).string(value).finish();
}

export function decodeStringValue(bytes: Uint8Array): string {
  const reader = protobuf.Reader.create(bytes);
  let value = "";
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag === 0x0a) value = reader.string();
    else reader.skipType(tag & 7);
  }
  return value;
}

export function encodeUInt64Value(value: bigint): Uint8Array {
  return value === 0n ? new Uint8Array() : protobuf.Writer.create().uint32(0x08).uint64(Long.fromString(value.toString(), true)).finish();
}

export function decodeUInt64Value(bytes: Uint8Array): bigint {
  const reader = protobuf.Reader.create(bytes);
  let value = 0n;
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag === 0x08) value = BigInt(String(reader.uint64()));
    else reader.skipType(tag & 7);
  }
  return value;
}
