import { fieldText } from "../../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import type { ExecContext } from "../../nodeModule.js";
import { channelError, connectionError } from "../host/coreErrors.js";
import { CONNECTION_OPEN, existingConnection, stateName } from "../connection/messages.js";
import { channelKey } from "../host/hostPaths.js";
import { checkId } from "../host/msgChecks.js";

/** Channel states and orderings as their enums name them (04-channel types/channel.pb.go). */
const CHANNEL_STATES = ["STATE_UNINITIALIZED_UNSPECIFIED", "STATE_INIT", "STATE_TRYOPEN", "STATE_OPEN", "STATE_CLOSED"];
const ORDERS = ["ORDER_NONE_UNSPECIFIED", "ORDER_UNORDERED", "ORDER_ORDERED"];
export const [CHANNEL_INIT, CHANNEL_TRYOPEN, CHANNEL_OPEN, CHANNEL_CLOSED] = [1, 2, 3, 4];
export const channelStateName = (state: unknown) => CHANNEL_STATES[Number(state ?? 0)] ?? String(state);
export const orderName = (order: unknown) => ORDERS[Number(order ?? 0)] ?? String(order);

/** Channel.ValidateBasic. */
export function checkChannel(channel: ProtoMessage): void {
  if (Number(channel.state ?? 0) === 0) throw channelError("invalidChannelState");
  const ordering = Number(channel.ordering ?? 0);
  if (ordering !== 1 && ordering !== 2) throw channelError("invalidChannelOrdering", orderName(ordering));
  const hops = (channel.connection_hops ?? []) as string[];
  if (hops.length !== 1) throw channelError("tooManyConnectionHops", "current IBC version only supports one connection hop");
  checkId("connection", hops[0], "invalid connection hop ID");
  const counterparty = (channel.counterparty ?? {}) as ProtoMessage;
  checkId("port", counterparty.port_id, "invalid counterparty port ID");
  if (fieldText(counterparty.channel_id) !== "") checkId("channel", counterparty.channel_id, "invalid counterparty channel ID");
}

export async function getChannelEnd(ctx: ExecContext, portId: string, channelId: string): Promise<ProtoMessage | undefined> {
  const bytes = await ctx.storeOf("ibc").get(channelKey(portId, channelId));
  return bytes ? ctx.codec.type("ibc.core.channel.v1.Channel").decode(bytes) : undefined;
}

export async function existingChannel(ctx: ExecContext, portId: string, channelId: string): Promise<ProtoMessage> {
  const channel = await getChannelEnd(ctx, portId, channelId);
  if (!channel) throw channelError("channelNotFound", `port ID (${portId}) channel ID (${channelId})`);
  return channel;
}

/** The channel's connection, which must exist and be OPEN. */
export async function openConnectionOf(ctx: ExecContext, hop: string): Promise<ProtoMessage> {
  const connection = await existingConnection(ctx, hop);
  if (Number(connection.state ?? 0) !== CONNECTION_OPEN) {
    throw connectionError("invalidConnectionState", `connection state is not OPEN (got ${stateName(connection.state)})`);
  }
  return connection;
}

export const firstHop = (channel: ProtoMessage) => ((channel.connection_hops ?? []) as string[])[0] ?? "";

/** A connection's negotiated version must be single and support the channel's ordering. */
export function checkOrderingSupported(connection: ProtoMessage, order: unknown): void {
  const versions = (connection.versions ?? []) as ProtoMessage[];
  if (versions.length !== 1) {
    throw connectionError("invalidVersion", `single version must be negotiated on connection before opening channel, got: ${versions.length} versions`);
  }
  const version = versions[0]!;
  const features = (version.features ?? []) as string[];
  if (!features.includes(orderName(order))) {
    // proto.CompactTextString of the version, as %s prints it
    const text = `identifier:"${fieldText(version.identifier)}" ${features.map((f) => `features:"${f}" `).join("")}`;
    throw connectionError("invalidVersion", `connection version ${text} does not support channel ordering: ${orderName(order)}`);
  }
}
