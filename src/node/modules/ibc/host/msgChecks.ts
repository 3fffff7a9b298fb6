import { bech32Prefixes } from "../../../../codec/addresses.js";
import { fieldText } from "../../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { sdkError } from "../../../abci/txError.js";
import type { ChainInfo, MsgRoute } from "../../nodeModule.js";
import { accountSigner, bech32Bytes } from "../../shared/msgAddresses.js";
import { channelError, commitmentError, connectionError, hostError } from "./coreErrors.js";
import { isZeroHeight } from "./heights.js";
import { identifierError, type IdentifierKind } from "./identifiers.js";

/** The ValidateBasic checks the IBC core Msgs share (SDK v0.41 x/ibc/core/*\/types/msgs.go). */

/** GetSigners of every IBC core Msg: its signer field. */
export const signers: MsgRoute["signers"] = (msg, chain) => [accountSigner(msg.signer, chain.bech32Prefix)];

/** sdk.AccAddressFromBech32(msg.Signer) as every IBC Msg checks it. */
export function checkSigner(msg: ProtoMessage, chain: ChainInfo): void {
  try {
    bech32Bytes(msg.signer, bech32Prefixes(chain.bech32Prefix).account);
  } catch (err) {
    throw sdkError("invalidAddress", `string could not be parsed as address: ${(err as Error).message}`);
  }
}

/** host.XIdentifierValidator, wrapped as the Msg wraps it ("invalid client ID: identifier … : invalid identifier"). */
export function checkId(kind: IdentifierKind, value: unknown, wrap?: string): void {
  const error = identifierError(fieldText(value), kind)?.replace(/: invalid identifier$/, "");
  if (error) throw hostError("invalidID", wrap ? `${wrap}: ${error}` : error);
}

/** IsValidConnectionID / IsValidChannelID: the SDK's "connection-{N}" / "channel-{N}" form. */
export const isConnectionIdFormat = (value: unknown) => /^connection-[0-9]{1,20}$/.test(fieldText(value)) && sequenceFits(fieldText(value));
export const isChannelIdFormat = (value: unknown) => /^channel-[0-9]{1,20}$/.test(fieldText(value)) && sequenceFits(fieldText(value));
const sequenceFits = (id: string) => BigInt(id.slice(id.lastIndexOf("-") + 1)) <= 0xffffffffffffffffn;

export function checkConnectionIdFormat(value: unknown, wrap?: string): void {
  if (!isConnectionIdFormat(value)) throw connectionError("invalidConnectionIdentifier", wrap);
}

export function checkChannelIdFormat(value: unknown, wrap?: string): void {
  if (!isChannelIdFormat(value)) throw channelError("invalidChannelIdentifier", wrap);
}

/** A proof field that must not be empty. */
export function checkProof(value: unknown, text: string): void {
  if (((value as Uint8Array | undefined)?.length ?? 0) === 0) throw commitmentError("invalidProof", text);
}

/** A height field that must not be zero. */
export function checkHeight(value: unknown, text: string): void {
  if (isZeroHeight(value ?? {})) throw sdkError("invalidHeight", text);
}

/** types.ValidateVersion of a connection version. */
function versionError(version: ProtoMessage | undefined): string | undefined {
  if (!version) return "version cannot be nil";
  if (fieldText(version.identifier).trim() === "") return "version identifier cannot be blank";
  const features = (version.features ?? []) as string[];
  const blank = features.findIndex((feature) => feature.trim() === "");
  return blank >= 0 ? `feature cannot be blank, index ${blank}` : undefined;
}

export function checkVersion(version: ProtoMessage | undefined, wrap?: string): void {
  const error = versionError(version);
  if (error) throw connectionError("invalidVersion", wrap ? `${wrap}: ${error}` : error);
}

/** Packet.ValidateBasic. */
export function checkPacket(packet: ProtoMessage | undefined): void {
  const p = packet ?? {};
  checkId("port", p.source_port, "invalid source port ID");
  checkId("port", p.destination_port, "invalid destination port ID");
  checkId("channel", p.source_channel, "invalid source channel ID");
  checkId("channel", p.destination_channel, "invalid destination channel ID");
  if (BigInt(fieldText(p.sequence, "0")) === 0n) throw channelError("invalidPacket", "packet sequence cannot be 0");
  if (isZeroHeight(p.timeout_height ?? {}) && BigInt(fieldText(p.timeout_timestamp, "0")) === 0n) {
    throw channelError("invalidPacket", "packet timeout height and packet timeout timestamp cannot both be 0");
  }
  if (((p.data as Uint8Array | undefined)?.length ?? 0) === 0) throw channelError("invalidPacket", "packet data bytes cannot be empty");
}
