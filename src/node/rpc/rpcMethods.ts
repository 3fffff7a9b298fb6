import type { ChainClient } from "../../client/chainClient.js";

/** A JSON-RPC method failure: reported as code -32603 with this text as data. */
export class RpcMethodError extends Error {}
/** Parameters that do not convert: -32602. */
export class RpcParamsError extends Error {}

export type RpcParams = Record<string, unknown>;
export type RpcMethod = (params: RpcParams) => Promise<unknown>;

/**
 * The node's JSON-RPC methods with the consensus engine's encodings: 64-bit
 * ints as strings, abci_query data as hex, response value as base64.
 * Built on the node's ChainClient so that both surfaces give the same answers.
 */
export function rpcMethods(client: ChainClient): Record<string, RpcMethod> {
  return {
    health: async () => ({}),
    status: () => client.status(),
    abci_query: async (params) => {
      const path = stringParam(params, "path");
      const data = hexParam(params, "data");
      const height = intParam(params, "height") ?? 0;
      const r = await client.abciQuery(path, data, height);
      // The ABCI struct's omitempty fields disappear when zero or empty.
      const response: Record<string, unknown> = {};
      if (r.code) response.code = r.code;
      if (r.log) response.log = r.log;
      if (r.value.length) response.value = Buffer.from(r.value).toString("base64");
      response.height = String(r.height);
      if (r.codespace) response.codespace = r.codespace;
      return { response };
    },
  };
}

function stringParam(params: RpcParams, name: string): string {
  const value = params[name] ?? "";
  if (typeof value !== "string") throw new RpcParamsError(`${name}: expected a string`);
  return value;
}

function hexParam(params: RpcParams, name: string): Uint8Array {
  const value = stringParam(params, name).replace(/^0x/i, "");
  if (!/^([0-9a-fA-F]{2})*$/.test(value)) throw new RpcParamsError(`${name}: expected hex bytes`);
  return new Uint8Array(Buffer.from(value, "hex"));
}

function intParam(params: RpcParams, name: string): number | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string" || !/^-?\d+$/.test(value)) {
    throw new RpcParamsError(`invalid 64-bit integer encoding ${JSON.stringify(value)}, expected string`);
  }
  return Number(value);
}
