import { fieldText } from "../../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { sdkError } from "../../../abci/txError.js";
import type { ExecContext, MsgRoute } from "../../nodeModule.js";
import { lookupModuleByChannel, lookupModuleByPort } from "./capabilities.js";
import {
  CHANNEL_CLOSED,
  CHANNEL_INIT,
  CHANNEL_OPEN,
  CHANNEL_TRYOPEN,
  channelStateName,
  checkChannel,
  checkOrderingSupported,
  existingChannel,
  firstHop,
  getChannelEnd,
  openConnectionOf,
  orderName,
} from "./channelRules.js";
import { existingConnection, wrapped } from "../connection/messages.js";
import { channelError } from "../host/coreErrors.js";
import type { Height } from "../host/heights.js";
import { channelKey, NEXT_CHANNEL_SEQUENCE_KEY, nextSequenceKey, readUint64, uint64Value } from "../host/hostPaths.js";
import { checkChannelIdFormat, checkHeight, checkId, checkProof, checkSigner, isChannelIdFormat, signers } from "../host/msgChecks.js";
import { verifyProof } from "../commitment/proofVerification.js";
import { channelStateTarget, counterpartyHops } from "../commitment/proofTargets.js";
import { transferError } from "../transfer/errors.js";

const ICS20_VERSION = "ics20-1";
const ORDER_UNORDERED = 1;

/** The ICS-04 channel handshake Msgs of SDK v0.41 (04-channel types/msgs.go, keeper/handshake.go, handler.go, core/keeper/msg_server.go, and the transfer module's callbacks). */
export const channelHandshakeMessages: Record<string, MsgRoute> = {
  "ibc.core.channel.v1.MsgChannelOpenInit": {
    action: "channel_open_init",
    signers,
    validateBasic(msg, chain) {
      checkId("port", msg.port_id, "invalid port ID");
      const channel = (msg.channel ?? {}) as ProtoMessage;
      if (Number(channel.state ?? 0) !== CHANNEL_INIT) {
        throw channelError(
          "invalidChannelState",
          `channel state must be INIT in MsgChannelOpenInit. expected: STATE_INIT, got: ${channelStateName(channel.state)}`,
        );
      }
      if (fieldText((channel.counterparty as ProtoMessage | undefined)?.channel_id) !== "") {
        throw channelError("invalidCounterparty", "counterparty channel identifier must be empty");
      }
      checkSigner(msg, chain);
      checkChannel(channel);
    },
    async handler(msg, ctx) {
      const portId = fieldText(msg.port_id);
      await lookupModuleByPort(ctx, portId);
      const channel = msg.channel as ProtoMessage;
      const channelId = await wrapped("channel handshake open init failed", () => chanOpenInit(ctx, portId, channel));
      emitChannelEvent(ctx, "channel_open_init", portId, channelId, channel);
      await wrapped("channel open init callback failed", async () => checkTransferChannel(ctx, portId, channel));
      return {};
    },
  },
  "ibc.core.channel.v1.MsgChannelOpenTry": {
    action: "channel_open_try",
    signers,
    validateBasic(msg, chain) {
      checkId("port", msg.port_id, "invalid port ID");
      if (fieldText(msg.previous_channel_id) !== "" && !isChannelIdFormat(msg.previous_channel_id)) {
        throw channelError("invalidChannelIdentifier", "invalid previous channel ID");
      }
      checkProof(msg.proof_init, "cannot submit an empty proof init");
      checkHeight(msg.proof_height, "proof height must be non-zero");
      const channel = (msg.channel ?? {}) as ProtoMessage;
      if (Number(channel.state ?? 0) !== CHANNEL_TRYOPEN) {
        throw channelError(
          "invalidChannelState",
          `channel state must be TRYOPEN in MsgChannelOpenTry. expected: STATE_TRYOPEN, got: ${channelStateName(channel.state)}`,
        );
      }
      checkId("channel", (channel.counterparty as ProtoMessage | undefined)?.channel_id, "invalid counterparty channel ID");
      checkSigner(msg, chain);
      checkChannel(channel);
    },
    async handler(msg, ctx) {
      const portId = fieldText(msg.port_id);
      await lookupModuleByPort(ctx, portId);
      const channel = msg.channel as ProtoMessage;
      const channelId = await wrapped("channel handshake open try failed", async () => {
        const previousId = fieldText(msg.previous_channel_id);
        if (previousId !== "") await checkPreviousChannel(ctx, portId, previousId, channel);
        const channelId = previousId !== "" ? previousId : await nextChannelId(ctx);
        const connection = await openConnectionOf(ctx, firstHop(channel));
        checkOrderingSupported(connection, channel.ordering);
        const counterparty = (channel.counterparty ?? {}) as ProtoMessage;
        const expected = channelStateTarget(
          ctx,
          { port: fieldText(counterparty.port_id), channel: fieldText(counterparty.channel_id) },
          {
            state: CHANNEL_INIT,
            ordering: channel.ordering,
            counterpartyPort: portId,
            counterpartyChannel: "",
            hops: counterpartyHops(connection),
            version: fieldText(msg.counterparty_version),
          },
        );
        await verifyProof(ctx, connection, msg.proof_height as Height, msg.proof_init as Uint8Array, "channel state", expected);
        // the channel capability is the stored channel end (capabilities.ts); a previous channel keeps its sequences
        if (previousId === "") setSequences(ctx, portId, channelId);
        setChannel(ctx, portId, channelId, { ...channel, state: CHANNEL_TRYOPEN });
        return channelId;
      });
      emitChannelEvent(ctx, "channel_open_try", portId, channelId, channel);
      await wrapped("channel open try callback failed", async () => {
        await checkTransferChannel(ctx, portId, channel);
        if (fieldText(msg.counterparty_version) !== ICS20_VERSION) {
          throw transferError("invalidVersion", `invalid counterparty version: got: ${fieldText(msg.counterparty_version)}, expected ${ICS20_VERSION}`);
        }
      });
      return {};
    },
  },
  "ibc.core.channel.v1.MsgChannelOpenAck": {
    action: "channel_open_ack",
    signers,
    validateBasic(msg, chain) {
      checkId("port", msg.port_id, "invalid port ID");
      checkChannelIdFormat(msg.channel_id);
      checkId("channel", msg.counterparty_channel_id, "invalid counterparty channel ID");
      checkProof(msg.proof_try, "cannot submit an empty proof try");
      checkHeight(msg.proof_height, "proof height must be non-zero");
      checkSigner(msg, chain);
    },
    async handler(msg, ctx) {
      await lookupModuleByChannel(ctx, msg.port_id, msg.channel_id);
      const [portId, channelId] = [fieldText(msg.port_id), fieldText(msg.channel_id)];
      const opened = await wrapped("channel handshake open ack failed", async () => {
        const channel = await existingChannel(ctx, fieldText(msg.port_id), fieldText(msg.channel_id));
        const state = Number(channel.state ?? 0);
        if (state !== CHANNEL_INIT && state !== CHANNEL_TRYOPEN) {
          throw channelError("invalidChannelState", `channel state should be INIT or TRYOPEN (got ${channelStateName(state)})`);
        }
        const connection = await openConnectionOf(ctx, firstHop(channel));
        const counterparty = (channel.counterparty ?? {}) as ProtoMessage;
        const expected = channelStateTarget(
          ctx,
          { port: fieldText(counterparty.port_id), channel: fieldText(msg.counterparty_channel_id) },
          {
            state: CHANNEL_TRYOPEN,
            ordering: channel.ordering,
            counterpartyPort: fieldText(msg.port_id),
            counterpartyChannel: fieldText(msg.channel_id),
            hops: counterpartyHops(connection),
            version: fieldText(msg.counterparty_version),
          },
        );
        await verifyProof(ctx, connection, msg.proof_height as Height, msg.proof_try as Uint8Array, "channel state", expected);
        const version = fieldText(msg.counterparty_version);
        const counterpartyEnd = { ...counterparty, channel_id: fieldText(msg.counterparty_channel_id) };
        return setChannel(ctx, portId, channelId, { ...channel, state: CHANNEL_OPEN, version, counterparty: counterpartyEnd });
      });
      emitChannelEvent(ctx, "channel_open_ack", portId, channelId, opened);
      if (fieldText(msg.counterparty_version) !== ICS20_VERSION) {
        const text = `invalid counterparty version: ${fieldText(msg.counterparty_version)}, expected ${ICS20_VERSION}`;
        throw transferError("invalidVersion", text).wrap("channel open ack callback failed");
      }
      return {};
    },
  },
  "ibc.core.channel.v1.MsgChannelOpenConfirm": {
    action: "channel_open_confirm",
    signers,
    validateBasic(msg, chain) {
      checkId("port", msg.port_id, "invalid port ID");
      checkChannelIdFormat(msg.channel_id);
      checkProof(msg.proof_ack, "cannot submit an empty proof ack");
      checkHeight(msg.proof_height, "proof height must be non-zero");
      checkSigner(msg, chain);
    },
    async handler(msg, ctx) {
      await lookupModuleByChannel(ctx, msg.port_id, msg.channel_id);
      const [portId, channelId] = [fieldText(msg.port_id), fieldText(msg.channel_id)];
      const opened = await wrapped("channel handshake open confirm failed", async () => {
        const channel = await existingChannel(ctx, fieldText(msg.port_id), fieldText(msg.channel_id));
        if (Number(channel.state ?? 0) !== CHANNEL_TRYOPEN) {
          throw channelError("invalidChannelState", `channel state is not TRYOPEN (got ${channelStateName(channel.state)})`);
        }
        const connection = await openConnectionOf(ctx, firstHop(channel));
        await verifyProof(
          ctx,
          connection,
          msg.proof_height as Height,
          msg.proof_ack as Uint8Array,
          "channel state",
          counterpartyEnd(ctx, msg, channel, connection, CHANNEL_OPEN),
        );
        return setChannel(ctx, portId, channelId, { ...channel, state: CHANNEL_OPEN });
      });
      emitChannelEvent(ctx, "channel_open_confirm", portId, channelId, opened);
      return {};
    },
  },
  "ibc.core.channel.v1.MsgChannelCloseInit": {
    action: "channel_close_init",
    signers,
    validateBasic(msg, chain) {
      checkId("port", msg.port_id, "invalid port ID");
      checkChannelIdFormat(msg.channel_id);
      checkSigner(msg, chain);
    },
    async handler(msg, ctx) {
      await lookupModuleByChannel(ctx, msg.port_id, msg.channel_id);
      // the transfer module's OnChanCloseInit refuses every close
      throw sdkError("invalidRequest", "channel close init callback failed: user cannot close channel");
    },
  },
  "ibc.core.channel.v1.MsgChannelCloseConfirm": {
    action: "channel_close_confirm",
    signers,
    validateBasic(msg, chain) {
      checkId("port", msg.port_id, "invalid port ID");
      checkChannelIdFormat(msg.channel_id);
      checkProof(msg.proof_init, "cannot submit an empty proof init");
      checkHeight(msg.proof_height, "proof height must be non-zero");
      checkSigner(msg, chain);
    },
    async handler(msg, ctx) {
      // the transfer module's OnChanCloseConfirm accepts; then the keeper
      await lookupModuleByChannel(ctx, msg.port_id, msg.channel_id);
      const [portId, channelId] = [fieldText(msg.port_id), fieldText(msg.channel_id)];
      const closed = await wrapped("channel handshake close confirm failed", async () => {
        const channel = await existingChannel(ctx, fieldText(msg.port_id), fieldText(msg.channel_id));
        if (Number(channel.state ?? 0) === CHANNEL_CLOSED) throw channelError("invalidChannelState", "channel is already CLOSED");
        const connection = await openConnectionOf(ctx, firstHop(channel));
        const expected = counterpartyEnd(ctx, msg, channel, connection, CHANNEL_CLOSED);
        await verifyProof(ctx, connection, msg.proof_height as Height, msg.proof_init as Uint8Array, "channel state", expected);
        return setChannel(ctx, portId, channelId, { ...channel, state: CHANNEL_CLOSED });
      });
      emitChannelEvent(ctx, "channel_close_confirm", portId, channelId, closed);
      return {};
    },
  },
};

/** The counterparty's end of an existing channel as ChanOpenConfirm/ChanCloseConfirm expect it, in `state`. */
function counterpartyEnd(ctx: ExecContext, msg: ProtoMessage, channel: ProtoMessage, connection: ProtoMessage, state: number) {
  const counterparty = (channel.counterparty ?? {}) as ProtoMessage;
  return channelStateTarget(
    ctx,
    { port: fieldText(counterparty.port_id), channel: fieldText(counterparty.channel_id) },
    {
      state,
      ordering: channel.ordering,
      counterpartyPort: fieldText(msg.port_id),
      counterpartyChannel: fieldText(msg.channel_id),
      hops: counterpartyHops(connection),
      version: fieldText(channel.version),
    },
  );
}

/** Keeper.ChanOpenInit: an INIT channel end with its capability and sequences starting at 1. */
async function chanOpenInit(ctx: ExecContext, portId: string, channel: ProtoMessage): Promise<string> {
  const connectionEnd = await existingConnection(ctx, firstHop(channel));
  checkOrderingSupported(connectionEnd, channel.ordering);
  const channelId = await nextChannelId(ctx);
  setChannel(ctx, portId, channelId, { ...channel, state: CHANNEL_INIT });
  setSequences(ctx, portId, channelId);
  return channelId;
}

async function nextChannelId(ctx: ExecContext): Promise<string> {
  const ibc = ctx.storeOf("ibc");
  const sequence = readUint64((await ibc.get(NEXT_CHANNEL_SEQUENCE_KEY)) ?? uint64Value(0n));
  ibc.set(NEXT_CHANNEL_SEQUENCE_KEY, uint64Value(sequence + 1n));
  return `channel-${sequence}`;
}

function setChannel(ctx: ExecContext, portId: string, channelId: string, channel: ProtoMessage): ProtoMessage {
  const { state, ordering, counterparty, connection_hops, version } = channel;
  const end = { state, ordering, counterparty, connection_hops, version };
  ctx.storeOf("ibc").set(channelKey(portId, channelId), ctx.codec.type("ibc.core.channel.v1.Channel").encode(end).finish());
  return end;
}

/** A new channel's send, receive and acknowledgement sequences, all at 1. */
function setSequences(ctx: ExecContext, portId: string, channelId: string): void {
  for (const kind of ["nextSequenceSend", "nextSequenceRecv", "nextSequenceAck"] as const) {
    ctx.storeOf("ibc").set(nextSequenceKey(kind, portId, channelId), uint64Value(1n));
  }
}

/** The channel handler's event of a handshake step (port, channel, the end's counterparty and connection), then message.module. */
function emitChannelEvent(ctx: ExecContext, type: string, portId: string, channelId: string, channel: ProtoMessage): void {
  const counterparty = (channel.counterparty ?? {}) as ProtoMessage;
  ctx.emit({
    type,
    attributes: [
      { key: "port_id", value: portId },
      { key: "channel_id", value: channelId },
      { key: "counterparty_port_id", value: fieldText(counterparty.port_id) },
      { key: "counterparty_channel_id", value: fieldText(counterparty.channel_id) },
      { key: "connection_id", value: firstHop(channel) },
    ],
  });
  ctx.emit({ type: "message", attributes: [{ key: "module", value: "ibc_channel" }] });
}

/** The transfer module's OnChanOpenInit (ValidateTransferChannelParams). */
async function checkTransferChannel(ctx: ExecContext, portId: string, channel: ProtoMessage): Promise<void> {
  if (Number(channel.ordering ?? 0) !== ORDER_UNORDERED) {
    throw channelError("invalidChannelOrdering", `expected ORDER_UNORDERED channel, got ${orderName(channel.ordering)} `);
  }
  // the port is the transfer module's bound port: LookupModuleByPort found it
  if (fieldText(channel.version) !== ICS20_VERSION) throw transferError("invalidVersion", `got ${fieldText(channel.version)}, expected ${ICS20_VERSION}`);
}

async function checkPreviousChannel(ctx: ExecContext, portId: string, previousId: string, channel: ProtoMessage): Promise<void> {
  const previous = await getChannelEnd(ctx, portId, previousId);
  if (!previous) throw channelError("invalidChannel", `previous channel does not exist for supplied previous channelID ${previousId}`);
  const [had, given] = [(previous.counterparty ?? {}) as ProtoMessage, (channel.counterparty ?? {}) as ProtoMessage];
  const same =
    Number(previous.ordering ?? 0) === Number(channel.ordering ?? 0) &&
    fieldText(had.port_id) === fieldText(given.port_id) &&
    fieldText(had.channel_id) === "" &&
    firstHop(previous) === firstHop(channel) &&
    fieldText(previous.version) === fieldText(channel.version);
  if (!same) throw channelError("invalidChannel", "channel fields mismatch previous channel fields");
  if (Number(previous.state ?? 0) !== CHANNEL_INIT) {
    throw channelError("invalidChannelState", `previous channel state is in ${channelStateName(previous.state)}, expected INIT`);
  }
}
