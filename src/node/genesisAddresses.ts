import { decodeBech32Address } from "../codec/bech32.js";

/**
 * The account addresses of a genesis import, decoded once: auth's and bank's validation and
 * their InitGenesis each decode every address of a million-account genesis, and bech32's
 * checksum was a tenth of the import. Kept as one Map from the address to a position in a
 * byte buffer (a length byte, then the bytes): no object per address besides its string.
 * Lives for one import; bounded by the genesis (an entry per distinct address of `prefix`).
 */
export class GenesisAddresses {
  private readonly positions = new Map<string, number>();
  private bytes = new Uint8Array(1 << 16);
  private used = 0;

  constructor(private readonly prefix: string) {}

  /** decodeBech32Address(address, prefix, field), its bytes remembered when it decodes with this import's prefix. */
  decode(address: string, prefix: string, field: string): Uint8Array {
    const at = prefix === this.prefix ? this.positions.get(address) : undefined;
    if (at !== undefined) return this.bytes.slice(at + 1, at + 1 + this.bytes[at]!);
    const decoded = decodeBech32Address(address, prefix, field);
    if (prefix === this.prefix) this.remember(address, decoded);
    return decoded;
  }

  private remember(address: string, decoded: Uint8Array): void {
    // decodeBech32Address refuses addresses longer than 255 bytes: the length fits in a byte
    if (this.used + 1 + decoded.length > this.bytes.length) {
      const bytes = new Uint8Array(Math.max(2 * this.bytes.length, this.used + 1 + decoded.length));
      bytes.set(this.bytes.subarray(0, this.used));
      this.bytes = bytes;
    }
    this.positions.set(address, this.used);
    this.bytes[this.used] = decoded.length;
    this.bytes.set(decoded, this.used + 1);
    this.used += 1 + decoded.length;
  }
}

/** An address of a module's genesis state, decoded through the import's GenesisAddresses when there is one. */
export function genesisAddress(addresses: GenesisAddresses | undefined, address: string, prefix: string, field: string): Uint8Array {
  return addresses ? addresses.decode(address, prefix, field) : decodeBech32Address(address, prefix, field);
}
