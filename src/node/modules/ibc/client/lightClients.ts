import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import type { ModuleContext } from "../../nodeModule.js";
import { heightOf, type Height } from "../host/heights.js";
import { fieldText } from "../../../../codec/fieldText.js";

/** The light clients of SDK v0.41: client state type URL → client type. */
const CLIENT_TYPES: Record<string, string> = {
  "/ibc.lightclients.tendermint.v1.ClientState": "07-tendermint",
  "/ibc.lightclients.solomachine.v1.ClientState": "06-solomachine",
  "/ibc.lightclients.localhost.v1.ClientState": "09-localhost",
};

const CONSENSUS_STATE_TYPES = new Set(["/ibc.lightclients.tendermint.v1.ConsensusState", "/ibc.lightclients.solomachine.v1.ConsensusState"]);

/** The client type of a packed client state ("07-tendermint"); throws naming the field for an unknown type. */
export function clientTypeOf(any: ProtoMessage, field: string): string {
  const type = CLIENT_TYPES[fieldText(any.type_url)];
  if (!type) throw new Error(`${field}: unsupported client state type "${fieldText(any.type_url)}" (expected one of ${Object.keys(CLIENT_TYPES).join(", ")})`);
  return type;
}

export function checkConsensusStateType(any: ProtoMessage, field: string): void {
  const url = fieldText(any.type_url);
  if (!CONSENSUS_STATE_TYPES.has(url))
    throw new Error(`${field}: unsupported consensus state type "${url}" (expected one of ${[...CONSENSUS_STATE_TYPES].join(", ")})`);
}

/** GetLatestHeight of a packed client state. */
export function latestHeightOf(any: ProtoMessage, ctx: ModuleContext): Height {
  const typeUrl = fieldText(any.type_url);
  const state = ctx.codec.type(typeUrl.slice(1)).decode(any.value as Uint8Array) as unknown as ProtoMessage;
  switch (CLIENT_TYPES[typeUrl]) {
    case "07-tendermint":
      return state.latest_height ?? {};
    case "06-solomachine":
      return heightOf(0n, BigInt(fieldText(state.sequence, "0")));
    case "09-localhost":
      return state.height ?? {};
    default:
      throw new Error(`unsupported client state type "${typeUrl}"`);
  }
}
