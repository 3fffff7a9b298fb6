/** Protobuf wire pieces written by hand, for tests that need bytes a normal encoder never writes. */

export function varint(value: number | bigint): number[] {
  let n = BigInt(value);
  const out: number[] = [];
  while (n > 0x7fn) {
    out.push(Number(n & 0x7fn) | 0x80);
    n >>= 7n;
  }
  out.push(Number(n));
  return out;
}

/** The same number in one more byte than needed (0x80 continuation, then a zero group). */
export function overlongVarint(value: number): number[] {
  const minimal = varint(value);
  minimal[minimal.length - 1]! |= 0x80;
  return [...minimal, 0x00];
}

export function tag(field: number, wire: number): number[] {
  return varint((field << 3) | wire);
}

/** A length-delimited field. */
export function delimited(field: number, payload: Uint8Array | number[]): number[] {
  return [...tag(field, 2), ...varint(payload.length), ...payload];
}

export const concat = (...parts: Array<Uint8Array | number[]>) => Uint8Array.from(parts.flatMap((p) => [...p]));
