import protobuf from "protobufjs";
import Long from "long";
import { fieldText } from "../../codec/fieldText.js";

/**
 * gogoproto's wrapper messages (StringValue, BytesValue, Int64Value,
 * UInt64Value), which the extension modules store as index values: a symbol
 * under its min unit, an NFT count under its denom, a request id under an
 * active-request key, a feed name. Field 1 in all; proto3 leaves out a default.
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
    if (tag === 0x08) value = BigInt(fieldText(reader.uint64()));
    else reader.skipType(tag & 7);
  }
  return value;
}

export function encodeBytesValue(value: Uint8Array): Uint8Array {
  return value.length === 0 ? new Uint8Array() : protobuf.Writer.create().uint32(0x0a).bytes(value).finish();
}

export function decodeBytesValue(bytes: Uint8Array): Uint8Array {
  const reader = protobuf.Reader.create(bytes);
  let value: Uint8Array = new Uint8Array();
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag === 0x0a) value = reader.bytes();
    else reader.skipType(tag & 7);
  }
  return value;
}

export function encodeInt64Value(value: number): Uint8Array {
  return value === 0 ? new Uint8Array() : protobuf.Writer.create().uint32(0x08).int64(Long.fromNumber(value)).finish();
}
