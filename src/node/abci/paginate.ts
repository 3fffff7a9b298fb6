import Long from "long";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import type { KVReader } from "../store/kv.js";
import { invalidArgument } from "./queryError.js";
import { concatBytes } from "../store/keyEncoding.js";
import { nodePageCaps } from "./nodePageCaps.js";
import { reversePage } from "./reversePage.js";

export interface PageRequest {
  key?: Uint8Array;
  offset?: Long | number;
  limit?: Long | number;
  count_total?: boolean;
  /** SDK v0.43: the page counted from the end (reversePage.ts). */
  reverse?: boolean;
}

export interface Page<T> {
  items: T[];
  pagination: ProtoMessage;
}

/**
 * Store pagination with the real system's rules (types/query/pagination.go):
 * key or offset (not both); a limit of 0 means 100 and forces count_total;
 * in key mode the total is never counted; next_key is the store key of the
 * first item of the next page, relative to the prefix, unset on the last page.
 * `select` may drop entries (a filter), which then do not count.
 * A count scans at most api.max-count-total entries past the page
 * (nodePageCaps.ts): past it an asked count is refused, and the count a
 * limit of 0 implies is left out (total 0, as a key page answers).
 */
export async function paginate<T>(
  store: KVReader,
  prefix: Uint8Array,
  request: PageRequest | undefined,
  select: (key: Uint8Array, value: Uint8Array) => T | undefined | Promise<T | undefined>,
): Promise<Page<T>> {
  const key = request?.key && request.key.length > 0 ? request.key : undefined;
  const offset = Number(request?.offset ?? 0);
  let limit = Number(request?.limit ?? 0);
  const askedCount = request?.count_total ?? false;
  let countTotal = askedCount;
  if (offset > 0 && key) throw invalidArgument("invalid request, either offset or key is expected, got both");
  if (limit === 0) {
    limit = nodePageCaps.defaultLimit;
    countTotal = true;
  }
  if (request?.reverse) return reversePage(store, prefix, { key, offset, limit, countTotal }, select);
  const countEnd = offset + limit + nodePageCaps.maxCountTotal; // the last entry a count may reach
  let countLeftOut = false;
  const items: T[] = [];
  let nextKey: Uint8Array | undefined;
  let count = 0;
  /** Takes one entry's item (undefined: dropped by `select`); false once the page has all it needs. */
  const take = (entryKey: Uint8Array, item: T | undefined): boolean => {
    if (item === undefined) return true;
    if (key) {
      if (count === limit) {
        nextKey = entryKey;
        return false;
      }
      items.push(item);
      count++;
      return true;
    }
    count++;
    if (count <= offset) return true;
    if (count <= offset + limit) items.push(item);
    else if (count === offset + limit + 1) {
      nextKey = entryKey;
      if (!countTotal) return false;
    }
    if (count > countEnd) return overCountCap();
    return true;
  };
  const overCountCap = (): false => {
    if (askedCount) {
      nodePageCaps.refused++;
      throw invalidArgument(
        `count_total would scan more than api.max-count-total (${nodePageCaps.maxCountTotal}) entries past the page; ask without count_total and page by pagination.key`,
      );
    }
    nodePageCaps.leftOut++;
    countLeftOut = true;
    return false;
  };
  // Entries already in memory are taken without a promise each (a select may still be async): as many
  // as the page needs if no entry is dropped; the scan goes on past them when some were.
  const needed = key ? limit + 1 : countTotal ? countEnd + 1 : offset + limit + 1;
  const kept = store.kept?.(prefix, key, needed);
  let from = key;
  let done = false;
  if (kept) {
    done = kept.length < needed; // fewer than asked: that was all of the range
    for (const [entryKey, value] of kept) {
      const selected = select(entryKey, value);
      if (!take(entryKey, selected instanceof Promise ? await selected : selected)) {
        done = true;
        break;
      }
    }
    if (!done) from = concatBytes(kept.at(-1)![0], Uint8Array.of(0)); // as many as asked: the range may go on past them
  }
  if (!done) for await (const [entryKey, value] of store.iterate(prefix, from)) if (!take(entryKey, await select(entryKey, value))) break;
  const pagination: ProtoMessage = { total: Long.fromNumber(!key && countTotal && !countLeftOut ? count : 0, true) };
  if (nextKey) pagination.next_key = Uint8Array.from(nextKey);
  return { items, pagination };
}
