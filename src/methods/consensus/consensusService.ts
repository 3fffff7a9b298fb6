import { createRequire } from "node:module";
import { encodeBech32Address } from "../../codec/bech32.js";
import { bech32Prefixes } from "../../codec/addresses.js";
import { NodeRpcError } from "../../client/chainClient.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { GatewayError, GrpcCode } from "../../http/grpcStatus.js";
import type { ServiceMethod, ServiceContext } from "../serviceMethod.js";
import { base64Bytes, hexBytes, int64 } from "../rpcJson.js";
import { blockResponse } from "./blockMessages.js";
import { pastTheEnd, rpcPage } from "../rpcPaging.js";
import { fieldText } from "../../codec/fieldText.js";
import type { RpcNodeInfo, RpcValidatorsResult } from "../../client/rpcJsonTypes.js";
import { profileTypeUrl } from "../../codec/typeRegistry.js";

const { version } = createRequire(import.meta.url)("../../../package.json") as { version: string };

/** core.base.consensus.v1beta1.Service on top of the node's RPC (status, block, validators). */
export const consensusService: Record<string, ServiceMethod> = {
  "/core.base.consensus.v1beta1.Service/GetNodeInfo": async (_request, { client }) => {
    const status = await client.status();
    const info = status.node_info as RpcNodeInfo;
    return {
      response: {
        default_node_info: {
          protocol_version: { p2p: int64(info.protocol_version?.p2p), block: int64(info.protocol_version?.block), app: int64(info.protocol_version?.app) },
          default_node_id: info.id ?? "",
          listen_addr: info.listen_addr ?? "",
          network: info.network,
          version: info.version ?? "",
          channels: hexBytes(info.channels),
          moniker: info.moniker ?? "",
          other: { tx_index: info.other?.tx_index ?? "", rpc_address: info.other?.rpc_address ?? "" },
        },
        application_version: {
          name: "chain-rest",
          app_name: "chain-rest",
          version,
          git_commit: "",
          build_tags: "",
          go_version: `node ${process.version}`,
          build_deps: [],
          // the SDK whose surface the routes serve: never a newer one, as clients switch their request profile on it
          cosmos_sdk_version: SERVED_SDK_VERSION,
        },
      },
    };
  },
  "/core.base.consensus.v1beta1.Service/GetSyncing": async (_request, { client }) => {
    const status = await client.status();
    return { response: { syncing: status.sync_info.catching_up } };
  },
  "/core.base.consensus.v1beta1.Service/GetLatestBlock": async (_request, context) => ({ response: blockResponse(await block(context)) }),
  "/core.base.consensus.v1beta1.Service/GetBlockByHeight": async (request, context) => ({
    response: blockResponse(await block(context, positive(request.height))),
  }),
  "/core.base.consensus.v1beta1.Service/GetLatestValidatorSet": (request, context) => validatorSet(request, context),
  "/core.base.consensus.v1beta1.Service/GetValidatorSetByHeight": (request, context) => validatorSet(request, context, positive(request.height)),
};

/** The SDK version whose REST surface chain-rest serves (routes newer SDKs added are marked `since:` in routes.yaml). */
const SERVED_SDK_VERSION = "v0.41.0";

function positive(value: unknown): number {
  const height = Number(fieldText(value, "0"));
  if (!(height > 0)) throw new GatewayError(GrpcCode.InvalidArgument, `invalid height ${fieldText(value, "0")}: a block height is a positive integer`);
  return height;
}

async function block(context: ServiceContext, height?: number): Promise<Record<string, unknown>> {
  try {
    return await context.client.block(height);
  } catch (err) {
    throw heightError(err);
  }
}

/** The node refusing a height is a bad request, not a server error (the real v0.41 answered 500). */
function heightError(err: unknown): unknown {
  if (err instanceof NodeRpcError && /height/.test(err.message))
    return new GatewayError(GrpcCode.InvalidArgument, `requested block height is bigger then the chain length: ${err.data ?? err.message}`);
  return err;
}

async function validatorSet(request: ProtoMessage, context: ServiceContext, height?: number): Promise<{ response: ProtoMessage }> {
  const { page, perPage, offset } = rpcPage(request.pagination, "validator set");
  let result: RpcValidatorsResult;
  try {
    result = await context.client.validators(height, page, perPage);
  } catch (err) {
    // an offset past the last validator is the request's fault (the real v0.41 answered 500)
    if (err instanceof NodeRpcError && /^page should be within/.test(err.data ?? "")) throw pastTheEnd(offset, "validator set", err.data);
    throw heightError(err);
  }
  const prefix = bech32Prefixes(context.bech32Prefix).consensus;
  return {
    response: {
      block_height: int64(result.block_height),
      validators: (result.validators ?? []).map((v) => ({
        address: encodeBech32Address(prefix, hexBytes(v.address)),
        pub_key: {
          type_url: profileTypeUrl("/core.crypto.ed25519.PubKey"),
          value: context.codec
            .type("core.crypto.ed25519.PubKey")
            .encode({ key: base64Bytes(v.pub_key?.value) })
            .finish(),
        },
        voting_power: int64(v.voting_power),
        proposer_priority: int64(v.proposer_priority),
      })),
    },
  };
}
