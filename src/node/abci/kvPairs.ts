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
