import type { ChainClient } from "../../src/client/chainClient.js";
import type { Codec } from "../../src/codec/codec.js";

/** The height a replayed node answers at. */
const REPLAY_HEIGHT = 7;

/**
 * A ChainClient whose node answers ABCI queries from recorded answers: full method name
 * (core.bank.v1beta1.Query/AllBalances) → the response in proto3 JSON, encoded to protobuf
 * with the project's codec. It records each request it was asked, decoded to proto3 JSON.
 */
export function replayClient(codec: Codec, answers: Record<string, unknown>): ChainClient & { asked: Array<{ method: string; request: unknown }> } {
  const asked: Array<{ method: string; request: unknown }> = [];
  const unsupported = () => Promise.reject(new Error("a replayed node answers ABCI queries only"));
  return {
    address: "replay",
    asked,
    abciQuery: async (path, data) => {
      const methodName = path.slice(1);
      const method = codec.root.lookupService(methodName.split("/")[0]!).methods[methodName.split("/")[1]!];
      if (!method) return { code: 6, codespace: "sdk", log: `unknown query path: no handler for ${path}`, value: new Uint8Array(), height: REPLAY_HEIGHT };
      method.resolve();
      const requestType = method.resolvedRequestType!;
      asked.push({ method: methodName, request: codec.renderer.render(requestType, requestType.decode(data)) });
      const answer = answers[methodName];
      if (answer === undefined)
        return { code: 22, codespace: "sdk", log: `no recorded answer for ${methodName}: not found`, value: new Uint8Array(), height: REPLAY_HEIGHT };
      const responseType = method.resolvedResponseType!;
      const message = codec.parser.parse(responseType, answer) as unknown as Record<string, unknown>;
      return { code: 0, codespace: "", log: "", value: responseType.encode(message).finish(), height: REPLAY_HEIGHT };
    },
    broadcastTx: unsupported,
    tx: unsupported,
    txSearch: unsupported,
    block: unsupported,
    validators: unsupported,
    status: unsupported,
  };
}
