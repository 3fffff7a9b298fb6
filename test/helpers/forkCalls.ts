import { expect } from "chai";
import { HttpClient } from "@cosmjs/tendermint-rpc";
import { http } from "./http.js";
import { startNode, type StartedNode } from "./processes.js";

/** The fork tests' loose JSON answers. */
export type Json = Record<string, any>;

/** The developer's own key in the fork tests: no account of the source chain. */
export const DEVELOPER_MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

/** A JSON-RPC call through cosmjs' HttpClient: its result. */
export async function rpcCall(url: string, method: string, params: Record<string, string | boolean> = {}): Promise<Json> {
  return (await new HttpClient(url).execute({ jsonrpc: "2.0", id: 1, method, params })).result as Json;
}

/** A REST GET that must answer 200, at `height` when given (x-cosmos-block-height). */
export async function restGet(restUrl: string, route: string, height?: number): Promise<Json> {
  const r = await http(`${restUrl}${route}`, { headers: { accept: "application/json", ...(height ? { "x-cosmos-block-height": String(height) } : {}) } });
  expect(r.status, `${route}: ${r.text}`).to.equal(200);
  return r.body as Json;
}

/** `chain-rest start --fork <source> --fork-height H --fork-fund ... --fork-chain-id ID [extra...]` in `home`. */
export function startFork(home: string, fork: { url: string; height: number; fund: string[]; chainId: string; extra?: string[] }): Promise<StartedNode> {
  const fund = fork.fund.flatMap((entry) => ["--fork-fund", entry]);
  return startNode(home, ["--fork", fork.url, "--fork-height", String(fork.height), ...fund, "--fork-chain-id", fork.chainId, ...(fork.extra ?? [])]);
}
