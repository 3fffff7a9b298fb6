import Long from "long";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import type { KVReader } from "../store/kv.js";
import { invalidArgument } from "./queryError.js";

export const DEFAULT_PAGE_LIMIT = 100;

export interface PageRequest {
  key?: Uint8Array;
  offset?: Long | number;
  limit?: Long | number;
  count_total?: boolean;
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
  let countTotal = request?.count_total ?? false;
  if (offset > 0 && key) throw invalidArgument("invalid request, either offset or key is expected, got both");
  if (limit === 0) {
    limit = DEFAULT_PAGE_LIMIT;
    countTotal = true;
  }
  const items: T[] = [];
  let nextKey: Uint8Array | undefined;
  let count = 0;
  for await (const [entryKey, value] of store.iterate(prefix, key)) {
    const item = await select(entryKey, value);
    if (item === undefined) continue;
    if (key) {
      if (count === limit) {
        nextKey = entryKey;
        break;
      }
      items.push(item);
      count++;
      continue;
    }
    count++;
    if (count <= offset) continue;
    if (count <= offset + limit) items.push(item);
    else if (count === offset + limit + 1) {
      nextKey = entryKey;
      if (!countTotal) break;
    }
  }
  const pagination: ProtoMessage = { total: Long.fromNumber(!key && countTotal ? count : 0, true) };
  if (nextKey) pagination.next_key = Uint8Array.from(nextKey);
  return { items, pagination };
}
