/** JSON-RPC parameters that do not convert: answered -32602 "Invalid params". */
export class RpcParamsError extends Error {}

/** Where the parameters came from: a JSON-RPC body, or a GET query string. */
export type ParamForm = "json" | "uri";

export type RpcParams = Record<string, unknown>;

/**
 * Parameter decoding as the consensus engine does it: over JSON-RPC, 64-bit
 * ints are strings and []byte is base64 (HexBytes is hex); over GET, ints are
 * bare or quoted, strings quoted, bytes 0x-hex or a quoted raw string.
 */
export class ParamReader {
  constructor(
    private readonly params: RpcParams,
    private readonly form: ParamForm,
  ) {}

  string(name: string): string {
    const value = this.params[name];
    if (value === undefined || value === null) return "";
    if (typeof value !== "string") throw new RpcParamsError(`${name}: expected a string`);
    if (this.form === "uri") {
      if (/^0x[0-9a-f]*$/i.test(value)) return Buffer.from(value.slice(2), "hex").toString();
      if (!/^".*"$/.test(value)) throw new RpcParamsError(`invalid character in ${name}: string values must be quoted`);
      return value.slice(1, -1);
    }
    return value;
  }

  /** An optional 64-bit (or platform int) parameter. */
  int(name: string): number | undefined {
    const value = this.params[name];
    if (value === undefined || value === null || value === "") return undefined;
    const text = this.form === "uri" && typeof value === "string" ? value.replace(/^"(.*)"$/, "$1") : value;
    if (typeof text !== "string" || !/^-?\d+$/.test(text)) {
      throw new RpcParamsError(`invalid 64-bit integer encoding ${JSON.stringify(value)}, expected string`);
    }
    return Number(text);
  }

  bool(name: string): boolean {
    const value = this.params[name];
    if (value === undefined || value === null) return false;
    if (typeof value === "boolean") return value;
    if (this.form === "uri" && (value === "true" || value === "false")) return value === "true";
    throw new RpcParamsError(`${name}: expected a boolean`);
  }

  /** []byte: base64 over JSON-RPC; 0x-hex or a quoted raw string over GET. */
  bytes(name: string): Uint8Array {
    const value = this.params[name];
    if (value === undefined || value === null) return new Uint8Array();
    if (typeof value !== "string") throw new RpcParamsError(`${name}: expected a string`);
    if (this.form === "uri") {
      if (/^0x[0-9a-f]*$/i.test(value)) return new Uint8Array(Buffer.from(value.slice(2), "hex"));
      if (/^".*"$/.test(value)) return new TextEncoder().encode(value.slice(1, -1));
      throw new RpcParamsError(`${name}: bytes must be 0x-prefixed hex or a quoted string`);
    }
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw new RpcParamsError(`${name}: expected base64`);
    return new Uint8Array(Buffer.from(value, "base64"));
  }

  /** HexBytes (abci_query data): hex without 0x over JSON-RPC, 0x-hex over GET. */
  hexBytes(name: string): Uint8Array {
    const raw = this.params[name];
    if (raw === undefined || raw === null || raw === "") return new Uint8Array();
    if (typeof raw !== "string") throw new RpcParamsError(`${name}: expected hex`);
    const value = raw.replace(/^0x/i, "").replace(/^"(.*)"$/, "$1");
    if (!/^([0-9a-fA-F]{2})*$/.test(value)) throw new RpcParamsError(`${name}: expected hex bytes`);
    return new Uint8Array(Buffer.from(value, "hex"));
  }
}

/** A JSON-RPC method of the node: its params, read by name or in argument order, to its result. */
export type RpcMethod = (params: ParamReader) => Promise<unknown>;
