import protobuf from "protobufjs";

/**
 * The v0.41 kv.Pairs message (types/kv/kv.proto: repeated Pair pairs = 1; Pair: bytes key = 1,
 * bytes value = 2), as a store's `/subspace` query answers it. Empty fields are left out, as proto3 does.
 */
export function encodeKvPairs(pairs: Iterable<[Uint8Array, Uint8Array]>): Uint8Array {
  const writer = protobuf.Writer.create();
  for (const [key, value] of pairs) {
    writer.uint32((1 << 3) | 2).fork();
    if (key.length) writer.uint32((1 << 3) | 2).bytes(key);
    if (value.length) writer.uint32((2 << 3) | 2).bytes(value);
    writer.ldelim();
  }
  return writer.finish();
}

/** Decodes kv.Pairs (a `/subspace` answer) into its pairs, in the order sent. */
export function decodeKvPairs(bytes: Uint8Array): Array<[Uint8Array, Uint8Array]> {
  const reader = protobuf.Reader.create(bytes);
  const pairs: Array<[Uint8Array, Uint8Array]> = [];
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag >>> 3 !== 1 || (tag & 7) !== 2) {
      reader.skipType(tag & 7);
      continue;
    }
    const pair = protobuf.Reader.create(reader.bytes());
    let key: Uint8Array = new Uint8Array();
    let value: Uint8Array = new Uint8Array();
    while (pair.pos < pair.len) {
      const field = pair.uint32();
      if (field >>> 3 === 1 && (field & 7) === 2) key = pair.bytes();
      else if (field >>> 3 === 2 && (field & 7) === 2) value = pair.bytes();
      else pair.skipType(field & 7);
    }
    pairs.push([key, value]);
  }
  return pairs;
}
