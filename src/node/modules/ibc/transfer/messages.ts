import { sha256 } from "@noble/hashes/sha2.js";
import { decodeBech32Address, encodeBech32Address } from "../../../../codec/bech32.js";
import { moduleAddress } from "../../../../codec/addresses.js";
import { fieldText } from "../../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { sdkError } from "../../../abci/txError.js";
import { utf8 } from "../../../store/moduleStore.js";
import { burnCoins, sendCoins, type Coin } from "../../bank/keeper.js";
import type { ExecContext, MsgRoute } from "../../nodeModule.js";
import { DENOM_PATTERN } from "../../shared/addressField.js";
import { accountSigner } from "../../shared/msgAddresses.js";
import { getClientState, getConsensusState } from "../client/store.js";
import { getConnection } from "../connection/store.js";
import { parseHexHash } from "./denomTrace.js";
import { formatHeight, heightGTE, isZeroHeight } from "../host/heights.js";
import { unixNanosText } from "../host/goText.js";
import { channelKey, nextSequenceKey, packetKey, readUint64, uint64Value } from "../host/hostPaths.js";
import { identifierError } from "../host/identifiers.js";
import { latestHeightOf } from "../client/lightClients.js";
import { commitPacket, fungibleTokenPacketData, type PacketView } from "../channel/packetCommitment.js";
import { emitPacketEvent } from "../channel/packetEvents.js";
import { transferError } from "./errors.js";
import { channelError, clientError, connectionError, hostError } from "../host/coreErrors.js";
import { getDenomTrace, readTransferParams } from "./store.js";
import { fullDenomPath } from "./denomTrace.js";

const CHANNEL_STATE_CLOSED = 4;

/** The transfer module's Msg service (SDK v0.41 x/ibc/applications/transfer): MsgTransfer, as its msg server, SendTransfer and the channel keeper's SendPacket do it. */
export const transferMessages: Record<string, MsgRoute> = {
  "ibc.applications.transfer.v1.MsgTransfer": {
    action: "transfer",
    signers: (msg, chain) => [accountSigner(msg.sender, chain.bech32Prefix)],
    validateBasic(msg, chain) {
      const port = identifierError(fieldText(msg.source_port), "port");
      if (port) throw hostError("invalidID", `invalid source port ID: ${port.replace(/: invalid identifier$/, "")}`);
      const channel = identifierError(fieldText(msg.source_channel), "channel");
      if (channel) throw hostError("invalidID", `invalid source channel ID: ${channel.replace(/: invalid identifier$/, "")}`);
      const token = tokenOf(msg);
      if (!DENOM_PATTERN.test(token.denom) || token.amount < 0n) throw sdkError("invalidCoins", `${token.amount}${token.denom}`);
      if (token.amount === 0n) throw sdkError("insufficientFunds", `${token.amount}${token.denom}`);
      try {
        decodeBech32Address(fieldText(msg.sender), chain.bech32Prefix, "sender");
      } catch (err) {
        throw sdkError("invalidAddress", `string could not be parsed as address: ${(err as Error).message}`);
      }
      if (fieldText(msg.receiver).trim() === "") throw sdkError("invalidAddress", "missing recipient address");
      checkIbcDenom(token.denom);
    },
    async handler(msg, ctx) {
      await sendTransfer(msg, ctx);
      ctx.emit({
        type: "ibc_transfer",
        attributes: [
          { key: "sender", value: fieldText(msg.sender) },
          { key: "receiver", value: fieldText(msg.receiver) },
        ],
      });
      ctx.emit({ type: "message", attributes: [{ key: "module", value: "transfer" }] });
      return {};
    },
  },
};

function tokenOf(msg: ProtoMessage): Coin {
  const token = (msg.token ?? {}) as ProtoMessage;
  const amount = fieldText(token.amount, "0");
  return { denom: fieldText(token.denom), amount: /^-?\d+$/.test(amount) ? BigInt(amount) : -1n };
}

/** ValidateIBCDenom: a base denom, or "ibc/{64 hex}". */
function checkIbcDenom(denom: string): void {
  const [prefix, hash] = denom.split(/\/(.*)/s, 2) as [string, string | undefined];
  if (hash === undefined) {
    if (prefix !== "ibc") return;
  } else if (prefix === "ibc" && hash.trim() !== "") {
    try {
      parseHexHash(hash);
      return;
    } catch (err) {
      throw transferError("invalidDenomForTransfer", `invalid denom trace hash ${hash}: ${(err as Error).message}`);
    }
  }
  throw transferError("invalidDenomForTransfer", `denomination should be prefixed with the format 'ibc/{hash(trace + "/" + ${denom})}'`);
}

/** GetEscrowAddress of SDK v0.41: AddressHash(port + channel), the first 20 bytes of its SHA-256. */
export function escrowAddress(prefix: string, port: string, channel: string): string {
  return encodeBech32Address(prefix, sha256(utf8(port + channel)).slice(0, 20));
}

async function sendTransfer(msg: ProtoMessage, ctx: ExecContext): Promise<void> {
  const transfer = ctx.storeOf("transfer");
  const ibc = ctx.storeOf("ibc");
  if (!(await readTransferParams(transfer, ctx)).send_enabled) throw transferError("sendDisabled");
  const port = fieldText(msg.source_port);
  const channelId = fieldText(msg.source_channel);
  const channelBytes = await ibc.get(channelKey(port, channelId));
  if (!channelBytes) throw channelError("channelNotFound", `port ID (${port}) channel ID (${channelId})`);
  const channel = ctx.codec.type("ibc.core.channel.v1.Channel").decode(channelBytes) as unknown as ProtoMessage;
  const counterparty = (channel.counterparty ?? {}) as ProtoMessage;
  const sequenceBytes = await ibc.get(nextSequenceKey("nextSequenceSend", port, channelId));
  if (!sequenceBytes) throw channelError("sequenceSendNotFound", `source port: ${port}, source channel: ${channelId}`);
  const sequence = readUint64(sequenceBytes);

  const token = tokenOf(msg);
  let fullPath = token.denom;
  if (token.denom.startsWith("ibc/")) {
    const hash = token.denom.slice(4);
    const trace = await getDenomTrace(transfer, parseHexHash(hash), ctx);
    if (!trace) throw transferError("traceNotFound", hash);
    fullPath = fullDenomPath(trace);
  }
  const sender = fieldText(msg.sender);
  if (!fullPath.startsWith(`${port}/${channelId}/`)) {
    // this chain is the source: the tokens wait in the channel's escrow account
    await sendCoins(ctx, sender, escrowAddress(ctx.chain.bech32Prefix, port, channelId), [token]);
  } else {
    // the tokens came over this channel: the vouchers go back to the module account and are burned
    const module = moduleAddress(ctx.chain.bech32Prefix, "transfer");
    await sendCoins(ctx, sender, module, [token]);
    await burnCoins(ctx, module, [token]);
  }
  const data = fungibleTokenPacketData({ denom: fullPath, amount: token.amount, sender, receiver: fieldText(msg.receiver) });
  await sendPacket(ctx, channel, {
    data,
    sequence,
    sourcePort: port,
    sourceChannel: channelId,
    destPort: fieldText(counterparty.port_id),
    destChannel: fieldText(counterparty.channel_id),
    timeoutHeight: msg.timeout_height ?? {},
    timeoutTimestamp: BigInt(fieldText(msg.timeout_timestamp, "0")),
  });
}

/** The channel keeper's SendPacket: the checks against the channel, its connection and client, then the commitment and the send_packet event. */
async function sendPacket(ctx: ExecContext, channel: ProtoMessage, packet: PacketView): Promise<void> {
  const ibc = ctx.storeOf("ibc");
  if (isZeroHeight(packet.timeoutHeight) && packet.timeoutTimestamp === 0n) {
    throw channelError("invalidPacket", "packet failed basic validation: packet timeout height and packet timeout timestamp cannot both be 0");
  }
  if (Number(channel.state ?? 0) === CHANNEL_STATE_CLOSED) throw channelError("invalidChannelState", "channel is CLOSED (got STATE_CLOSED)");
  const connectionId = ((channel.connection_hops ?? []) as string[])[0] ?? "";
  const connection = await getConnection(ibc, connectionId, ctx);
  if (!connection) throw connectionError("connectionNotFound", connectionId);
  const clientId = fieldText(connection.client_id);
  const clientState = await getClientState(ibc, clientId, ctx);
  if (!clientState) throw clientError("consensusStateNotFound");
  const state = ctx.codec.type(fieldText(clientState.type_url).slice(1)).decode(clientState.value as Uint8Array) as unknown as ProtoMessage;
  if (state.frozen_height && !isZeroHeight(state.frozen_height)) {
    throw clientError("clientFrozen", `cannot send packet on a frozen client with ID ${clientId}`);
  }
  const latest = latestHeightOf(clientState, ctx);
  if (!isZeroHeight(packet.timeoutHeight) && heightGTE(latest, packet.timeoutHeight)) {
    throw channelError(
      "packetTimeout",
      `receiving chain block height >= packet timeout height (${formatHeight(latest)} >= ${formatHeight(packet.timeoutHeight)})`,
    );
  }
  const consensus = await getConsensusState(ibc, clientId, latest, ctx);
  if (!consensus) throw clientError("consensusStateNotFound", `clientID (${clientId}), height (${formatHeight(latest)})`);
  const timestamp = (ctx.codec.type(fieldText(consensus.type_url).slice(1)).decode(consensus.value as Uint8Array) as unknown as ProtoMessage).timestamp as
    { seconds?: unknown; nanos?: number } | undefined;
  const latestNanos = BigInt(fieldText(timestamp?.seconds, "0")) * 1_000_000_000n + BigInt(timestamp?.nanos ?? 0);
  if (packet.timeoutTimestamp !== 0n && latestNanos >= packet.timeoutTimestamp) {
    throw channelError(
      "packetTimeout",
      `receiving chain block timestamp >= packet timeout timestamp (${unixNanosText(latestNanos)} >= ${unixNanosText(packet.timeoutTimestamp)})`,
    );
  }
  ibc.set(nextSequenceKey("nextSequenceSend", packet.sourcePort, packet.sourceChannel), uint64Value(packet.sequence + 1n));
  ibc.set(packetKey("commitments", packet.sourcePort, packet.sourceChannel, packet.sequence), commitPacket(packet));
  emitPacketEvent(ctx, "send_packet", packet, { ordering: channel.ordering, connection: connectionId });
}
