import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { ExecContext } from "../nodeModule.js";
import { EXPIRED, expiredQueueKey, expiredQueuePrefix, HTLC_TYPE, htlcKey, upperHex } from "./keys.js";

/**
 * BeginBlock (irismod v1.3.1 htlc/abci.go): every HTLC queued at exactly this height becomes
 * EXPIRED (in hash-lock order) and leaves the queue; no coins move — the creator refunds with
 * MsgRefundHTLC. The event goes to the block's begin_block_events.
 */
export async function expireHtlcs(ctx: ExecContext): Promise<void> {
  const store = ctx.storeOf("htlc");
  const prefix = expiredQueuePrefix(ctx.height);
  const due: Uint8Array[] = [];
  for await (const [key] of store.iterate(prefix)) due.push(key.slice());
  const htlcType = ctx.codec.type(HTLC_TYPE);
  for (const hashLock of due) {
    const bytes = await store.get(htlcKey(hashLock));
    if (bytes) {
      const htlc = htlcType.decode(bytes) as unknown as ProtoMessage;
      store.set(htlcKey(hashLock), htlcType.encode({ ...htlc, state: EXPIRED }).finish());
    }
    store.delete(expiredQueueKey(ctx.height, hashLock));
    ctx.emit({ type: "htlc_expired", attributes: [{ key: "hash_lock", value: upperHex(hashLock) }] });
  }
}
