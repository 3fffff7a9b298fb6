import { moduleAddress } from "../../../codec/addresses.js";
import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { sdkError } from "../../abci/txError.js";
import { coinsFromProto, formatCoins, sendCoins } from "../bank/keeper.js";
import type { ExecContext, MsgRoute } from "../nodeModule.js";
import { coinsAreValid } from "../shared/coinChecks.js";
import { checkAccountField } from "../shared/msgAddresses.js";
import { htlcError } from "./errors.js";
import { COMPLETED, EXPIRED, expiredQueueKey, hashLockOf, hexDecode, HTLC_TYPE, htlcKey, OPEN, REFUNDED, upperHex } from "./keys.js";
import { emitMsgEvent } from "../shared/msgEvents.js";

const MIN_TIME_LOCK = 50;
const MAX_TIME_LOCK = 25480;
const MAX_RECEIVER_ON_OTHER_CHAIN = 128;
const HEX_LENGTH = 64;

/**
 * The htlc module's Msgs (irismod v1.3.1 modules/htlc): lock coins under a hash lock until a
 * height; anyone may claim with the secret (the coins go to `to`) or, once expired, refund (they
 * go back to the creator). The expiry itself is the block hook's (blocks.ts).
 */
export const htlcMessages: Record<string, MsgRoute> = {
  "extmod.htlc.MsgCreateHTLC": {
    action: "create_htlc",
    signers: (msg) => [fieldText(msg.sender)],
    validateBasic(msg, chain) {
      checkAccountField(msg.sender, chain.bech32Prefix, "invalid sender address");
      checkAccountField(msg.to, chain.bech32Prefix, "invalid recipient address");
      if (fieldText(msg.receiver_on_other_chain).length > MAX_RECEIVER_ON_OTHER_CHAIN) {
        throw sdkError("invalidAddress", `length of the receiver on other chain must be between [0,${MAX_RECEIVER_ON_OTHER_CHAIN}]`);
      }
      const amount = coinsFromProto(msg.amount);
      if (amount.length === 0 || !coinsAreValid(amount)) throw sdkError("invalidCoins", "the transferred amount must be valid");
      checkHashLock(msg.hash_lock);
      const timeLock = BigInt(fieldText(msg.time_lock, "0"));
      if (timeLock < MIN_TIME_LOCK || timeLock > MAX_TIME_LOCK)
        throw htlcError("invalidTimeLock", `the time lock must be between [${MIN_TIME_LOCK},${MAX_TIME_LOCK}]`);
    },
    async handler(msg, ctx) {
      const sender = fieldText(msg.sender);
      const hashLock = hexDecode(fieldText(msg.hash_lock))!;
      const store = ctx.storeOf("htlc");
      // a hash lock is never used twice, whatever the state of the first HTLC
      if (await store.get(htlcKey(hashLock))) throw htlcError("htlcExists", upperHex(hashLock));
      const amount = coinsFromProto(msg.amount);
      await sendCoins(ctx, sender, htlcModuleAddress(ctx), amount);
      const expirationHeight = ctx.height + Number(fieldText(msg.time_lock, "0"));
      const htlc = {
        sender,
        to: fieldText(msg.to),
        receiver_on_other_chain: fieldText(msg.receiver_on_other_chain),
        amount: msg.amount ?? [],
        secret: "",
        timestamp: fieldText(msg.timestamp, "0"),
        expiration_height: String(expirationHeight),
        state: OPEN,
      };
      store.set(htlcKey(hashLock), ctx.codec.type(HTLC_TYPE).encode(htlc).finish());
      store.set(expiredQueueKey(expirationHeight, hashLock), new Uint8Array());
      emitMsgEvent(ctx, "htlc", sender, "create_htlc", {
        sender,
        receiver: htlc.to,
        receiver_on_other_chain: htlc.receiver_on_other_chain,
        amount: formatCoins(amount),
        hash_lock: fieldText(msg.hash_lock),
        time_lock: fieldText(msg.time_lock, "0"),
      });
      return {};
    },
  },

  "extmod.htlc.MsgClaimHTLC": {
    action: "claim_htlc",
    signers: (msg) => [fieldText(msg.sender)],
    validateBasic(msg, chain) {
      checkAccountField(msg.sender, chain.bech32Prefix, "invalid sender address");
      checkHashLock(msg.hash_lock);
      const secret = fieldText(msg.secret);
      if (secret.length !== HEX_LENGTH) throw htlcError("invalidSecret", `length of the secret must be ${HEX_LENGTH}`);
      if (!hexDecode(secret)) throw htlcError("invalidSecret", "secret must be a hex encoded string");
    },
    async handler(msg, ctx) {
      const hashLock = hexDecode(fieldText(msg.hash_lock))!;
      const htlc = await existingHtlc(ctx, hashLock);
      if (Number(htlc.state ?? OPEN) !== OPEN) throw htlcError("htlcNotOpen", upperHex(hashLock));
      const secret = hexDecode(fieldText(msg.secret))!;
      if (upperHex(hashLockOf(secret, BigInt(fieldText(htlc.timestamp, "0")))) !== upperHex(hashLock)) throw htlcError("invalidSecret", upperHex(secret));
      await sendCoins(ctx, htlcModuleAddress(ctx), fieldText(htlc.to), coinsFromProto(htlc.amount));
      saveHtlc(ctx, hashLock, { ...htlc, secret: upperHex(secret), state: COMPLETED });
      ctx.storeOf("htlc").delete(expiredQueueKey(Number(fieldText(htlc.expiration_height, "0")), hashLock));
      const sender = fieldText(msg.sender);
      emitMsgEvent(ctx, "htlc", sender, "claim_htlc", { sender, hash_lock: fieldText(msg.hash_lock), secret: fieldText(msg.secret) });
      return {};
    },
  },

  "extmod.htlc.MsgRefundHTLC": {
    action: "refund_htlc",
    signers: (msg) => [fieldText(msg.sender)],
    validateBasic(msg, chain) {
      checkAccountField(msg.sender, chain.bech32Prefix, "invalid sender address");
      checkHashLock(msg.hash_lock);
    },
    async handler(msg, ctx) {
      const hashLock = hexDecode(fieldText(msg.hash_lock))!;
      const htlc = await existingHtlc(ctx, hashLock);
      await refundHtlc(ctx, hashLock, htlc);
      const sender = fieldText(msg.sender);
      emitMsgEvent(ctx, "htlc", sender, "refund_htlc", { sender, hash_lock: fieldText(msg.hash_lock) });
      return {};
    },
  },
};

/** Keeper.RefundHTLC: an expired HTLC's coins back to its sender from the module account, and the HTLC REFUNDED. */
export async function refundHtlc(ctx: ExecContext, hashLock: Uint8Array, htlc: ProtoMessage): Promise<void> {
  if (Number(htlc.state ?? OPEN) !== EXPIRED) throw htlcError("htlcNotExpired", upperHex(hashLock));
  await sendCoins(ctx, htlcModuleAddress(ctx), fieldText(htlc.sender), coinsFromProto(htlc.amount));
  saveHtlc(ctx, hashLock, { ...htlc, state: REFUNDED });
}

/** The htlc module account (no permissions): it holds the locked coins. */
const htlcModuleAddress = (ctx: ExecContext) => moduleAddress(ctx.chain.bech32Prefix, "htlc");

function checkHashLock(value: unknown): void {
  const text = fieldText(value);
  if (text.length !== HEX_LENGTH) throw htlcError("invalidHashLock", `length of the hash lock must be ${HEX_LENGTH}`);
  if (!hexDecode(text)) throw htlcError("invalidHashLock", "hash lock must be a hex encoded string");
}

async function existingHtlc(ctx: ExecContext, hashLock: Uint8Array): Promise<ProtoMessage> {
  const bytes = await ctx.storeOf("htlc").get(htlcKey(hashLock));
  if (!bytes) throw htlcError("unknownHtlc", upperHex(hashLock));
  return ctx.codec.type(HTLC_TYPE).decode(bytes);
}

function saveHtlc(ctx: ExecContext, hashLock: Uint8Array, htlc: ProtoMessage): void {
  ctx.storeOf("htlc").set(htlcKey(hashLock), ctx.codec.type(HTLC_TYPE).encode(htlc).finish());
}
