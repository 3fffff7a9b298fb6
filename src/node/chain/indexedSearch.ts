import { valueMatches, type Condition, type EventAttributes } from "../../events/eventQuery.js";
import type { VersionedStore } from "../store/versionedStore.js";
import { hasPair, pairCount, pairEntries, pairPositions, readPosition, type IndexSpace } from "./eventIndex.js";
import { SearchError } from "./searchPaging.js";

/** Index entries a search without a key='value' condition may scan and sort (its positions are held). */
const MAX_SCANNED = 100_000;

export interface IndexedPage {
  /** Positions of the page's occurrences, in the asked order. */
  positions: Uint8Array[];
  total: number;
}

export interface SearchScope {
  space: IndexSpace;
  /** The composite key compared with an occurrence's height ("tx.height", "block.height"). */
  heightKey: string;
  /** Every position with a height in [low, high], in order (height conditions without an attribute to drive the search). */
  heightRange(low: number, high: number): AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  /** The indexed attributes of the occurrence at a position, for conditions no index entry answers. */
  attributesAt(at: Uint8Array): Promise<EventAttributes>;
}

type Order = "asc" | "desc";

/**
 * The occurrences matching every condition, one page of them. A condition
 * `key = 'value'` has an exact pair whose count and ordinals are stored: the
 * rarest such pair drives the search. Alone it costs O(page): the total is one
 * read and the page is read by ordinal; with height bounds, O(log count + page)
 * (the heights' run of ordinals is found by bisection). With other conditions, each of its
 * occurrences is checked (point reads, or the occurrence's attributes): O(its
 * count), holding only the page. With no exact pair, height conditions read
 * the positions of their heights, and otherwise the first condition's key is
 * scanned (at most MAX_SCANNED matching entries, which are held and sorted).
 */
export async function searchIndex(
  store: VersionedStore,
  scope: SearchScope,
  conditions: readonly Condition[],
  order: Order,
  offset: number,
  size: number,
): Promise<IndexedPage> {
  const pairs = conditions.filter((c) => c.op === "=" && c.operand?.kind === "string" && c.key !== scope.heightKey);
  if (pairs.length > 0) {
    const counted = await Promise.all(pairs.map(async (c) => ({ c, count: await pairCount(store, scope.space, c.key, stringOf(c)) })));
    const driver = counted.reduce((a, b) => (b.count < a.count ? b : a));
    const rest = conditions.filter((c) => c !== driver.c);
    if (rest.every((c) => isHeightBound(c, scope))) {
      // the pair's occurrences within the heights are a run of its ordinals: found by bisection, then read by ordinal
      const [low, high] = heightBounds(rest);
      const first = rest.length === 0 ? 0 : await firstOrdinal(store, scope, driver.c, driver.count, (height) => height >= low);
      const end = rest.length === 0 ? driver.count : await firstOrdinal(store, scope, driver.c, driver.count, (height) => height > high);
      const total = Math.max(0, end - first);
      const from = first + (order === "asc" ? offset : Math.max(0, total - offset - size));
      const to = first + (order === "asc" ? Math.min(total, offset + size) : total - offset);
      const positions = to > from ? await pairPositions(store, scope.space, driver.c.key, stringOf(driver.c), from, to) : [];
      return { positions: order === "asc" ? positions : positions.reverse(), total };
    }
    return windowOf(store, scope, () => pairOrdinals(store, scope, driver.c, driver.count), rest, order, offset, size);
  }
  const heights = conditions.filter((c) => c.key === scope.heightKey);
  if (heights.length > 0) {
    const [low, high] = heightBounds(heights);
    const others = conditions.filter((c) => c.key !== scope.heightKey);
    return windowOf(store, scope, () => scope.heightRange(low, high), [...heights, ...others], order, offset, size);
  }
  const [first, ...rest] = conditions;
  const scanned = new Set<string>();
  const candidates: Uint8Array[] = [];
  for await (const entry of pairEntries(store, scope.space, first!.key, first!.op === "EXISTS" && !first!.key.includes("."))) {
    const id = Buffer.from(entry.at).toString("hex");
    if (scanned.has(id) || !valueMatches(first!, entry.value)) continue;
    scanned.add(id);
    candidates.push(entry.at);
    if (candidates.length > MAX_SCANNED)
      throw new SearchError(`the query matches more than ${MAX_SCANNED} index entries of ${first!.key} without a key='value' condition to drive it; add one`);
  }
  candidates.sort((a, b) => Buffer.compare(a, b));
  return windowOf(store, scope, () => candidates, rest, order, offset, size);
}

/** A height condition with a number: one bound of a range. */
function isHeightBound(condition: Condition, scope: SearchScope): boolean {
  return condition.key === scope.heightKey && condition.op !== "EXISTS" && (condition.operand?.kind === "int" || condition.operand?.kind === "float");
}

/** The first ordinal of the pair whose height passes `test` (false up to some ordinal, true from it on), or `count`: O(log count) reads. */
async function firstOrdinal(store: VersionedStore, scope: SearchScope, pair: Condition, count: number, test: (height: number) => boolean): Promise<number> {
  let [low, high] = [0, count];
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const [at] = await pairPositions(store, scope.space, pair.key, stringOf(pair), middle, middle + 1);
    if (at && test(readPosition(at).height)) high = middle;
    else low = middle + 1;
  }
  return low;
}

async function* pairOrdinals(store: VersionedStore, scope: SearchScope, condition: Condition, count: number): AsyncGenerator<Uint8Array> {
  const chunk = 256;
  for (let from = 0; from < count; from += chunk)
    yield* await pairPositions(store, scope.space, condition.key, stringOf(condition), from, Math.min(count, from + chunk));
}

/**
 * One page of the candidates (in position order) that meet every condition,
 * and how many do, holding only the page: ascending in one walk, descending in
 * two (one to count, one to take the page from the end).
 */
async function windowOf(
  store: VersionedStore,
  scope: SearchScope,
  candidates: () => AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  conditions: readonly Condition[],
  order: Order,
  offset: number,
  size: number,
): Promise<IndexedPage> {
  const take = async (from: number, to: number) => {
    const page: Uint8Array[] = [];
    let count = 0;
    for await (const at of candidates()) {
      if (!(await meets(store, scope, at, conditions))) continue;
      if (count >= from && count < to) page.push(at);
      count++;
    }
    return { page, count };
  };
  if (order === "asc") {
    const { page, count } = await take(offset, offset + size);
    return { positions: page, total: count };
  }
  const { count: total } = await take(0, 0);
  const { page } = await take(Math.max(0, total - offset - size), total - offset);
  return { positions: page.reverse(), total };
}

async function meets(store: VersionedStore, scope: SearchScope, at: Uint8Array, conditions: readonly Condition[]): Promise<boolean> {
  let attributes: EventAttributes | undefined;
  for (const condition of conditions) {
    if (condition.key === scope.heightKey && condition.op !== "EXISTS") {
      if (!valueMatches(condition, String(readPosition(at).height))) return false;
    } else if (condition.op === "=" && condition.operand?.kind === "string") {
      if (!(await hasPair(store, scope.space, condition.key, condition.operand.value, at))) return false;
    } else {
      attributes ??= await scope.attributesAt(at);
      if (!conditionHoldsIn(condition, attributes)) return false;
    }
  }
  return true;
}

function conditionHoldsIn(condition: Condition, attributes: EventAttributes): boolean {
  if (condition.op === "EXISTS") {
    if (condition.key.includes(".")) return attributes.has(condition.key);
    return [...attributes.keys()].some((key) => key.startsWith(condition.key));
  }
  return (attributes.get(condition.key) ?? []).some((value) => valueMatches(condition, value));
}

/** The heights that integer and float height conditions allow, as one closed range (other kinds are checked per occurrence). */
function heightBounds(conditions: readonly Condition[]): [number, number] {
  let low = 0;
  let high = Number.MAX_SAFE_INTEGER;
  for (const { op, operand } of conditions) {
    if (!operand || (operand.kind !== "int" && operand.kind !== "float")) continue;
    const value = Number(operand.value);
    if (op === "=") [low, high] = [Math.max(low, Math.ceil(value)), Math.min(high, Math.floor(value))];
    else if (op === ">") low = Math.max(low, Math.floor(value) + 1);
    else if (op === ">=") low = Math.max(low, Math.ceil(value));
    else if (op === "<") high = Math.min(high, Math.ceil(value) - 1);
    else if (op === "<=") high = Math.min(high, Math.floor(value));
  }
  return [low, high];
}

function stringOf(condition: Condition): string {
  return condition.operand?.kind === "string" ? condition.operand.value : "";
}
