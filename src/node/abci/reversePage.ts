import Long from "long";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import type { KVReader } from "../store/kv.js";
import { compareBytes } from "../store/keyEncoding.js";
import { invalidArgument } from "./queryError.js";
import { nodePageCaps } from "./nodePageCaps.js";

/**
 * A page of `pagination.reverse` (SDK v0.43), the same entries and next_key
 * as the SDK's reverse iterator gives: with a key, the `limit` entries at or
 * before it (the first entry at or after the key is the newest one), newest
 * first; with an offset, the entries `offset` from the end. The store reads
 * forward only, so the page is found in one forward scan that keeps the last
 * offset + limit + 1 entries (a bound set by the page caps) and stops at the
 * key; the scan is refused past api.max-count-total entries beyond the page,
 * as a count is.
 */
export async function reversePage<T>(
  store: KVReader,
  prefix: Uint8Array,
  page: { key?: Uint8Array; offset: number; limit: number; countTotal: boolean },
  select: (key: Uint8Array, value: Uint8Array) => T | undefined | Promise<T | undefined>,
): Promise<{ items: T[]; pagination: ProtoMessage }> {
  const keep = page.offset + page.limit + 1;
  const scanEnd = keep + nodePageCaps.maxCountTotal;
  // the last `keep` selected entries, in a circular buffer (slot count % keep)
  const ring: Array<[Uint8Array, T]> = new Array<[Uint8Array, T]>(keep);
  let count = 0;
  let passedKey = false;
  for await (const [entryKey, value] of store.iterate(prefix)) {
    if (passedKey) break; // the first entry at or after the key is the last one the page may hold
    if (page.key && compareBytes(entryKey, page.key) >= 0) passedKey = true;
    const item = await select(entryKey, value);
    if (item === undefined) continue;
    if (++count > scanEnd) {
      nodePageCaps.refused++;
      throw invalidArgument(
        `a reverse page is found by reading the list from its start here, and this one would read more than api.max-count-total (${nodePageCaps.maxCountTotal}) entries past the page; page forward, or by pagination.key`,
      );
    }
    ring[(count - 1) % keep] = [Uint8Array.from(entryKey), item];
  }
  const skip = page.key ? 0 : page.offset;
  const newestFirst: Array<[Uint8Array, T]> = [];
  for (let i = count - 1; i >= 0 && i >= count - keep; i--) newestFirst.push(ring[i % keep]!);
  const items = newestFirst.slice(skip, skip + page.limit).map(([, item]) => item);
  const next = newestFirst[skip + page.limit];
  const pagination: ProtoMessage = { total: Long.fromNumber(!page.key && page.countTotal ? count : 0, true) };
  if (next) pagination.next_key = next[0];
  return { items, pagination };
}
