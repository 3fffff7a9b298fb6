import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { decodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { expiredQueueKey, hashLockOf, hexDecode, HTLC_TYPE, htlcKey, OPEN } from "./keys.js";
import { htlcMessages } from "./messages.js";
import { expireHtlcs } from "./blocks.js";
import type { KVStore } from "../../store/kv.js";
import { DENOM_PATTERN } from "../shared/addressField.js";
import type { DevGenesisContext } from "../devGenesisContext.js";
import type { ModuleContext, NodeModule } from "../nodeModule.js";
import { fieldText } from "../../../codec/fieldText.js";
import { htlcQueries } from "./queries.js";
import { HTLC_PREFIX } from "./keys.js";
import { decodedUnder } from "../shared/exportReads.js";

const HASH_LOCK_LENGTH = 32;
const SECRET_LENGTH = 32;
const MAX_LENGTH_FOR_RECEIVER_ON_OTHER_CHAIN = 128;

/** The secret of the development genesis' open HTLC (so that a test can claim it), and its hash lock. */
const DEV_HTLC_SECRET = bytesToHex(sha256(new TextEncoder().encode("chain-rest development htlc")));
export const DEV_HTLC_HASH_LOCK = bytesToHex(hashLockOf(hexToBytes(DEV_HTLC_SECRET), 0n));
/** The longest time lock MsgCreateHTLC accepts, counted from genesis. */
const DEV_HTLC_EXPIRATION_HEIGHT = 25480;

export const htlcModule: NodeModule = {
  name: "htlc",
  genesisType: "extmod.htlc.GenesisState",
  queryService: "extmod.htlc.Query",
  messages: htlcMessages,
  beginBlock: expireHtlcs,

  queries: htlcQueries,

  validateGenesis(state, ctx) {
    for (const [key, value] of Object.entries((state.pending_htlcs ?? {}) as Record<string, ProtoMessage>)) {
      const where = `pending_htlcs[${key}]`;
      const hashLock = hexDecode(key);
      if (!hashLock) throw new Error(`${where}: invalid hash lock ${key}: encoding/hex: invalid byte or odd length`);
      if (hashLock.length !== HASH_LOCK_LENGTH) throw new Error(`${where}: length of the hash lock must be ${HASH_LOCK_LENGTH} in bytes: invalid hash lock`);
      if (Number(value.state ?? 0) !== OPEN) throw new Error(`${where}.state: ${key}: HTLC not open`);
      validateHtlc(value, where, ctx);
    }
  },

  /**
   * irismod's ExportGenesis: the open HTLCs only. This node's new chain starts again at height 1,
   * so a plain export makes each expiration height relative to the exported height, as
   * --for-zero-height's step (htlcPrepForZeroHeight) has already done in the state it reads.
   */
  async exportGenesis(ctx) {
    const pending: Record<string, ProtoMessage> = {};
    const shift = ctx.forZeroHeight ? 0n : BigInt(ctx.height) - 1n;
    for (const [hashLock, htlc] of await decodedUnder(ctx.store, HTLC_PREFIX, ctx, HTLC_TYPE)) {
      if (Number(htlc.state ?? 0) !== OPEN) continue;
      const expiration = BigInt(fieldText(htlc.expiration_height, "0")) - shift;
      pending[bytesToHex(hashLock).toUpperCase()] = { ...htlc, expiration_height: expiration.toString() };
    }
    return { pending_htlcs: pending };
  },

  async initGenesis(state, ctx) {
    const htlcType = ctx.codec.type(HTLC_TYPE);
    for (const [key, value] of Object.entries((state.pending_htlcs ?? {}) as Record<string, ProtoMessage>)) {
      const hashLock = hexDecode(key)!;
      ctx.store.set(htlcKey(hashLock), htlcType.encode(value).finish());
      addToExpiredQueue(ctx.store, Number(fieldText(value.expiration_height, "0")), hashLock);
    }
  },

  devGenesis(ctx: DevGenesisContext) {
    const amount = [{ denom: ctx.denom, amount: "1000000" }];
    ctx.fund(ctx.moduleAccount("htlc", []), amount);
    return {
      pending_htlcs: {
        [DEV_HTLC_HASH_LOCK]: {
          sender: ctx.accounts[2]!.address,
          to: ctx.accounts[3]!.address,
          receiver_on_other_chain: "0x7d0a3e9c2b51f4a86e0d3c97b1a25f6e48c0d913",
          amount,
          secret: "",
          timestamp: "0",
          expiration_height: String(DEV_HTLC_EXPIRATION_HEIGHT),
          state: "HTLC_STATE_OPEN",
        },
      },
    };
  },
};

function addToExpiredQueue(store: KVStore, expirationHeight: number, hashLock: Uint8Array): void {
  store.set(expiredQueueKey(expirationHeight, hashLock), new Uint8Array());
}

/** HTLC.Validate of the real module, with the field that fails. */
function validateHtlc(htlc: ProtoMessage, where: string, ctx: ModuleContext): void {
  for (const field of ["sender", "to"] as const) {
    try {
      decodeBech32Address(fieldText(htlc[field]), ctx.chain.bech32Prefix, field);
    } catch (err) {
      throw new Error(`${where}.${field}: invalid ${field} address (${(err as Error).message}): invalid address`);
    }
  }
  if (fieldText(htlc.receiver_on_other_chain).length > MAX_LENGTH_FOR_RECEIVER_ON_OTHER_CHAIN) {
    throw new Error(
      `${where}.receiver_on_other_chain: length of the receiver on other chain must be between [0,${MAX_LENGTH_FOR_RECEIVER_ON_OTHER_CHAIN}]: invalid address`,
    );
  }
  const amount = (htlc.amount ?? []) as ProtoMessage[];
  if (amount.length === 0) throw new Error(`${where}.amount: the transferred amount must be valid: invalid coins`);
  amount.forEach((coin, i) => {
    const denom = fieldText(coin.denom);
    const value = fieldText(coin.amount);
    if (!DENOM_PATTERN.test(denom) || !/^\d+$/.test(value) || BigInt(value) === 0n) {
      throw new Error(`${where}.amount[${i}]: the transferred amount must be valid: invalid coins`);
    }
  });
  const secret = fieldText(htlc.secret);
  if (secret !== "" && hexDecode(secret)?.length !== SECRET_LENGTH) {
    throw new Error(`${where}.secret: length of the secret must be ${SECRET_LENGTH} in bytes: invalid secret`);
  }
  if (BigInt(fieldText(htlc.expiration_height, "0")) === 0n) throw new Error(`${where}.expiration_height: the expiration height must be positive`);
}
