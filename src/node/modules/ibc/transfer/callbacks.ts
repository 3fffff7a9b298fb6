import { moduleAddress } from "../../../../codec/addresses.js";
import { encodeBech32Address } from "../../../../codec/bech32.js";
import { TxError } from "../../../abci/txError.js";
import { mintCoins, sendCoins, type Coin } from "../../bank/keeper.js";
import type { ExecContext } from "../../nodeModule.js";
import { accountBytes } from "../../shared/msgAddresses.js";
import { acknowledgementBytes, acknowledgementText, decodeAcknowledgement } from "../channel/acknowledgement.js";
import { denomTraceHash, upperHex } from "./denomTrace.js";
import { transferError } from "./errors.js";
import { escrowAddress } from "./messages.js";
import { checkTokenPacketData, decodeTokenPacketData, type TokenPacketData } from "./packetData.js";
import { denomTraceKey, readTransferParams } from "./store.js";

/**
 * The ICS-20 transfer module's packet callbacks of SDK v0.41 (x/ibc/applications/transfer module.go
 * and keeper/relay.go): OnRecvPacket (mint vouchers or unescrow, an error becoming an error
 * acknowledgement), OnAcknowledgementPacket (refund on an error acknowledgement), OnTimeoutPacket
 * (refund). Packet ends are "{port}/{channel}" pairs of the packet as the channel keeper gave it.
 */
export interface PacketEnds {
  sourcePort: string;
  sourceChannel: string;
  destPort: string;
  destChannel: string;
}

const MODULE = "transfer";
const UNESCROW_FAILED =
  "unable to unescrow tokens, this may be caused by a malicious counterparty module or a bug: please open an issue on counterparty module";

/** A trace "{path}/{base}" split at its last "/" (ParseDenomTrace), and its denom on this chain: the base, or "ibc/{HASH}". */
function parseDenomTrace(fullPath: string): { path: string; base_denom: string; denom: string; hash: Uint8Array } {
  const cut = fullPath.lastIndexOf("/");
  const trace = cut < 0 ? { path: "", base_denom: fullPath } : { path: fullPath.slice(0, cut), base_denom: fullPath.slice(cut + 1) };
  const hash = denomTraceHash(trace);
  return { ...trace, hash, denom: trace.path === "" ? trace.base_denom : `ibc/${upperHex(hash)}` };
}

/** The fungible_token_packet attributes naming the packet's transfer. */
const packetDataAttributes = (data: TokenPacketData) => [
  { key: "module", value: MODULE },
  { key: "receiver", value: data.receiver },
  { key: "denom", value: data.denom },
  { key: "amount", value: data.amount.toString() },
];

/** OnRecvPacket: returns the acknowledgement bytes; a packet data that does not decode fails the transaction. */
export async function onRecvPacket(ctx: ExecContext, packet: PacketEnds, dataBytes: Uint8Array): Promise<Uint8Array> {
  const data = decodeTokenPacketData(dataBytes);
  let failure: TxError | undefined;
  try {
    await receiveTokens(ctx, packet, data);
  } catch (err) {
    if (!(err instanceof TxError)) throw err;
    failure = err;
  }
  ctx.emit({
    type: "fungible_token_packet",
    attributes: [
      ...packetDataAttributes(data),
      // v0.41 writes `err != nil` here: "false" when the tokens were received, "true" when they were not
      { key: "success", value: String(failure !== undefined) },
    ],
  });
  return acknowledgementBytes(failure ? { error: failure.message } : { result: Uint8Array.of(1) });
}

async function receiveTokens(ctx: ExecContext, packet: PacketEnds, data: TokenPacketData): Promise<void> {
  checkTokenPacketData(data);
  if (!(await readTransferParams(ctx.storeOf("transfer"), ctx)).receive_enabled) throw transferError("receiveDisabled");
  const prefix = ctx.chain.bech32Prefix;
  const receiver = encodeBech32Address(prefix, accountBytes(data.receiver, ctx));
  const voucherPrefix = `${packet.sourcePort}/${packet.sourceChannel}/`;
  if (data.denom.startsWith(voucherPrefix)) {
    // this chain is the token's source: it returns from the escrow of the channel it left by
    const token = { denom: parseDenomTrace(data.denom.slice(voucherPrefix.length)).denom, amount: data.amount };
    await unescrow(ctx, escrowAddress(prefix, packet.destPort, packet.destChannel), receiver, token);
    return;
  }
  // the sender chain is the source: vouchers with this channel's prefix are minted
  const trace = parseDenomTrace(`${packet.destPort}/${packet.destChannel}/${data.denom}`);
  const transfer = ctx.storeOf("transfer");
  if (!(await transfer.get(denomTraceKey(trace.hash)))) {
    const encoded = ctx.codec.type("ibc.applications.transfer.v1.DenomTrace").encode({ path: trace.path, base_denom: trace.base_denom }).finish();
    transfer.set(denomTraceKey(trace.hash), encoded);
  }
  ctx.emit({
    type: "denomination_trace",
    attributes: [
      { key: "trace_hash", value: upperHex(trace.hash) },
      { key: "denom", value: trace.denom },
    ],
  });
  await mintTo(ctx, receiver, { denom: trace.denom, amount: data.amount });
}

/** MintCoins to the transfer module account, then SendCoinsFromModuleToAccount. */
async function mintTo(ctx: ExecContext, receiver: string, token: Coin): Promise<void> {
  const module = moduleAddress(ctx.chain.bech32Prefix, MODULE);
  await mintCoins(ctx, module, [token]);
  await sendCoins(ctx, module, receiver, [token]);
}

async function unescrow(ctx: ExecContext, escrow: string, receiver: string, token: Coin): Promise<void> {
  try {
    await sendCoins(ctx, escrow, receiver, [token]);
  } catch (err) {
    if (err instanceof TxError) throw err.wrap(UNESCROW_FAILED);
    throw err;
  }
}

/** OnAcknowledgementPacket: an error acknowledgement refunds the sender; the events name the acknowledgement. */
export async function onAcknowledgementPacket(ctx: ExecContext, packet: PacketEnds, dataBytes: Uint8Array, ackBytes: Uint8Array): Promise<void> {
  const ack = decodeAcknowledgement(ackBytes);
  const data = decodeTokenPacketData(dataBytes);
  if (ack.error !== undefined) await refundPacketToken(ctx, packet, data);
  ctx.emit({
    type: "fungible_token_packet",
    attributes: [...packetDataAttributes(data), { key: "acknowledgement", value: acknowledgementText(ack) }],
  });
  if (ack.result !== undefined) ctx.emit({ type: "fungible_token_packet", attributes: [{ key: "success", value: new TextDecoder().decode(ack.result) }] });
  else if (ack.error !== undefined) ctx.emit({ type: "fungible_token_packet", attributes: [{ key: "error", value: ack.error }] });
}

/** OnTimeoutPacket: the sender is refunded; the timeout event names the refund. */
export async function onTimeoutPacket(ctx: ExecContext, packet: PacketEnds, dataBytes: Uint8Array): Promise<void> {
  const data = decodeTokenPacketData(dataBytes);
  await refundPacketToken(ctx, packet, data);
  ctx.emit({
    type: "timeout",
    attributes: [
      { key: "module", value: MODULE },
      { key: "refund_receiver", value: data.sender },
      { key: "refund_denom", value: data.denom },
      { key: "refund_amount", value: data.amount.toString() },
    ],
  });
}

/** refundPacketToken: unescrow when this chain was the token's source, else mint the burnt vouchers again. */
async function refundPacketToken(ctx: ExecContext, packet: PacketEnds, data: TokenPacketData): Promise<void> {
  const token = { denom: parseDenomTrace(data.denom).denom, amount: data.amount };
  const sender = encodeBech32Address(ctx.chain.bech32Prefix, accountBytes(data.sender, ctx));
  if (!data.denom.startsWith(`${packet.sourcePort}/${packet.sourceChannel}/`)) {
    await unescrow(ctx, escrowAddress(ctx.chain.bech32Prefix, packet.sourcePort, packet.sourceChannel), sender, token);
    return;
  }
  await mintTo(ctx, sender, token);
}
