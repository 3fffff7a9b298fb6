import { expect } from "chai";
import { bech32 } from "bech32";
import protobuf from "protobufjs";

/** The bytes of a bech32 address. */
export const addressBytes = (address: string) => Uint8Array.from(bech32.fromWords(bech32.decode(address).words));

export interface QueryAnswer {
  code?: number;
  codespace?: string;
  log?: string;
  value?: string;
  height: string;
}

/** abci_query over a node's JSON-RPC (HTTP POST), data as hex. */
export async function abciQuery(rpcUrl: string, queryPath: string, data: Uint8Array | string = new Uint8Array(), height = 0): Promise<QueryAnswer> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const body = { jsonrpc: "2.0", id: 1, method: "abci_query", params: { path: queryPath, data: Buffer.from(bytes).toString("hex"), height: String(height) } };
  const response = await fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const answer = (await response.json()) as { result?: { response: QueryAnswer }; error?: unknown };
  expect(answer.error, JSON.stringify(answer.error)).to.equal(undefined);
  return answer.result!.response;
}

export const valueOf = (answer: QueryAnswer) => new Uint8Array(Buffer.from(answer.value ?? "", "base64"));

/** Decodes v0.41's kv.Pairs (repeated Pair pairs = 1; Pair: bytes key = 1, bytes value = 2); keys and values in hex. */
export function decodeKvPairs(bytes: Uint8Array): Array<{ key: string; value: string }> {
  const reader = protobuf.Reader.create(bytes);
  const pairs: Array<{ key: string; value: string }> = [];
  while (reader.pos < reader.len) {
    expect(reader.uint32()).to.equal((1 << 3) | 2);
    const pair = protobuf.Reader.create(reader.bytes());
    const entry = { key: "", value: "" };
    while (pair.pos < pair.len) {
      const tag = pair.uint32();
      if (tag === ((1 << 3) | 2)) entry.key = Buffer.from(pair.bytes()).toString("hex");
      else if (tag === ((2 << 3) | 2)) entry.value = Buffer.from(pair.bytes()).toString("hex");
      else throw new Error(`unexpected tag ${tag}`);
    }
    pairs.push(entry);
  }
  return pairs;
}
