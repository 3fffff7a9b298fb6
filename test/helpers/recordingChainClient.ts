import type { ChainClient } from "../../src/client/chainClient.js";

export interface RecordedQuery {
  path: string;
  data: Uint8Array;
}

/**
 * The node side of an in-process REST app for tests of routing: every ABCI
 * query is recorded (method path and request bytes, what the gateway asks the
 * node) and answered with the bytes set for its method (an empty message by
 * default); nothing else is used.
 */
export function recordingChainClient(answers = new Map<string, Uint8Array>()): ChainClient & { queries: RecordedQuery[] } {
  const queries: RecordedQuery[] = [];
  const unsupported = () => Promise.reject(new Error("not used by these tests"));
  return {
    address: "recording",
    queries,
    abciQuery: async (path, data) => {
      queries.push({ path, data });
      return { code: 0, codespace: "", log: "", value: answers.get(path) ?? new Uint8Array(), height: 7 };
    },
    broadcastTx: unsupported,
    tx: unsupported,
    txSearch: unsupported,
    block: unsupported,
    validators: unsupported,
    status: unsupported,
  };
}
