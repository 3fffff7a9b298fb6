/** Go's hex.DecodeString: either case, an even number of digits; undefined when the text is not hex. */
export function decodeHex(text: string): Uint8Array | undefined {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return undefined;
  return Uint8Array.from(Buffer.from(text, "hex"));
}

/** tmbytes.HexBytes.String(): upper-case hex, as the service module writes ids into its messages. */
export function upperHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex").toUpperCase();
}

export function lowerHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}
