import type { AbciQueryResponse, ChainClient } from "../client/chainClient.js";
import type { Codec } from "../codec/codec.js";
import type { ProtoMessage } from "../codec/json/renderProto3.js";
import { names } from "../names/activeNames.js";
import { asGatewayError } from "../http/errorBody.js";
import { SERVICE_METHODS } from "../methods/index.js";

/** Methods of the tx service a real node also answers as ABCI queries (cosmjs's QueryClient tx extension asks GetTx so). */
const TX_QUERIES = ["GetTx", "GetTxsEvent"];
const TX_SERVICE = "core.tx.v1beta1.Service";

/** An ABCI query path the embedded node answers beside its modules, and its handler. */
export interface ServedQuery {
  path: string;
  handler: (data: Uint8Array, height: number) => Promise<AbciQueryResponse>;
}

/**
 * The tx service's queries as ABCI query handlers of the embedded node, answered by the
 * same implementations the REST routes run, over the node's own client.
 */
export function txServiceQueries(codec: Codec, client: ChainClient, bech32Prefix: string): ServedQuery[] {
  const service = codec.root.lookupService("." + names().protoName(TX_SERVICE));
  return TX_QUERIES.map((name) => {
    const method = service.methods[name]!;
    const implementation = SERVICE_METHODS.get(`/${TX_SERVICE}/${name}`)!;
    const path = `/${names().protoName(TX_SERVICE)}/${name}`;
    return {
      path,
      handler: async (data, height) => {
        try {
          const request = method.resolvedRequestType!.decode(data) as unknown as ProtoMessage;
          const { response } = await implementation(request, { client, codec, height: 0, bech32Prefix });
          return { code: 0, codespace: "", log: "", value: method.resolvedResponseType!.encode(response).finish(), height };
        } catch (err) {
          const error = asGatewayError(err);
          return { code: 1, codespace: "undefined", log: `rpc error: code = ${error.code} desc = ${error.message}`, value: new Uint8Array(), height };
        }
      },
    };
  });
}
