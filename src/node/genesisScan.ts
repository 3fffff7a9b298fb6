/**
 * One linear pass over genesis.json's bytes that finds the long lists of `app_state`
 * (`app_state.<module>.<field>`: auth's accounts, bank's balances, ...) and where to cut them
 * into chunks of whole entries, so that the import parses the document without those lists
 * (a small skeleton) and each list a chunk at a time: the document's objects are never all in
 * memory at once, and a progress line can follow each chunk.
 *
 * The scanner reads only the structure (strings are skipped by searching their closing quote).
 * It gives up (undefined) on anything it does not expect — unbalanced brackets, an unterminated
 * string, a key twice in the first levels — and the caller parses the whole document instead,
 * which reports the error the way JSON.parse does.
 */

export interface ListChunks {
  module: string;
  field: string;
  /** The entries of the list. */
  entries: number;
  /** Byte ranges [from, to) of consecutive chunks, each whole entries separated by commas. */
  chunks: Array<{ from: number; to: number; entries: number }>;
}

export interface ScannedGenesis {
  /** The document with the long lists left empty (`[]`). */
  skeleton: string;
  lists: ListChunks[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OBJECT = 1;
const ARRAY = 2;

/** Levels whose keys the scanner reads: the root, app_state, a module's state. */
const KEYED_LEVELS = 3;

interface OpenList {
  module: string;
  field: string;
  open: number; // the '[' offset
  depth: number;
  entries: number;
  nonEmpty: boolean;
  chunkFrom: number;
  chunkEntries: number;
  chunks: ListChunks["chunks"];
}

/**
 * Scans `bytes` (a JSON document) for the lists at `app_state.<module>.<field>` of at least
 * `minBytes` bytes, cut into chunks of `chunkEntries` entries. Undefined: parse it whole.
 */
export function scanGenesis(bytes: Buffer, chunkEntries: number, minBytes: number): ScannedGenesis | undefined {
  const kinds: number[] = [];
  const keys: Array<string | undefined> = [];
  const seenKeys: Array<Set<string> | undefined> = [];
  let expectKey = false;
  let list: OpenList | undefined;
  const found: Array<ListChunks & { open: number; close: number }> = [];
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      const close = stringEnd(bytes, i);
      if (close < 0) return undefined;
      const depth = kinds.length;
      if (expectKey && depth <= KEYED_LEVELS) {
        const key = keyText(bytes, i, close);
        if (key === undefined || seenKeys[depth - 1]!.has(key)) return undefined; // JSON.parse keeps the last of twins: parse whole
        seenKeys[depth - 1]!.add(key);
        keys[depth - 1] = key;
      }
      if (list && depth === list.depth) list.nonEmpty = true;
      i = close + 1;
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (list && kinds.length === list.depth) list.nonEmpty = true;
      if (c === OPEN_ARRAY && !list && kinds.length === KEYED_LEVELS && keys[0] === "app_state" && kinds.every((k) => k === OBJECT)) {
        list = {
          module: keys[1]!,
          field: keys[2]!,
          open: i,
          depth: KEYED_LEVELS + 1,
          entries: 0,
          nonEmpty: false,
          chunkFrom: i + 1,
          chunkEntries: 0,
          chunks: [],
        };
      }
      kinds.push(c === OPEN_OBJECT ? OBJECT : ARRAY);
      if (kinds.length <= KEYED_LEVELS) seenKeys[kinds.length - 1] = new Set();
      expectKey = c === OPEN_OBJECT;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (kinds.pop() !== (c === CLOSE_OBJECT ? OBJECT : ARRAY)) return undefined;
      if (list && kinds.length === list.depth - 1) {
        if (list.nonEmpty) list.chunks.push({ from: list.chunkFrom, to: i, entries: list.chunkEntries + 1 });
        const entries = list.nonEmpty ? list.entries + 1 : 0;
        if (i - list.open >= minBytes) found.push({ module: list.module, field: list.field, entries, chunks: list.chunks, open: list.open, close: i });
        list = undefined;
      }
      expectKey = false;
    } else if (c === COMMA) {
      expectKey = kinds[kinds.length - 1] === OBJECT;
      if (list && kinds.length === list.depth) {
        list.entries++;
        if (++list.chunkEntries === chunkEntries) {
          list.chunks.push({ from: list.chunkFrom, to: i, entries: chunkEntries });
          list.chunkFrom = i + 1;
          list.chunkEntries = 0;
        }
      }
    } else if (c === COLON) {
      expectKey = false;
    } else if (list && kinds.length === list.depth && c > 0x20) {
      list.nonEmpty = true; // a number, true, false or null entry
    }
    i++;
  }
  if (kinds.length !== 0) return undefined;
  return { skeleton: skeletonOf(bytes, found), lists: found.map(({ module, field, entries, chunks }) => ({ module, field, entries, chunks })) };
}

/** Parses one chunk of a list; undefined when it is not exactly its entries (the caller then parses the whole document for JSON.parse's error). */
export function parseChunk(bytes: Buffer, chunk: ListChunks["chunks"][number]): unknown[] | undefined {
  try {
    const entries = JSON.parse(`[${bytes.toString("utf8", chunk.from, chunk.to)}]`) as unknown[];
    return entries.length === chunk.entries ? entries : undefined;
  } catch {
    return undefined;
  }
}

/** The offset of the quote closing the string that opens at `open`; -1 when there is none. */
function stringEnd(bytes: Buffer, open: number): number {
  let close = bytes.indexOf(QUOTE, open + 1);
  while (close > 0) {
    let backslashes = 0;
    while (bytes[close - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return close;
    close = bytes.indexOf(QUOTE, close + 1);
  }
  return -1;
}

function keyText(bytes: Buffer, open: number, close: number): string | undefined {
  if (!bytes.subarray(open, close).includes(BACKSLASH)) return bytes.toString("utf8", open + 1, close);
  try {
    return JSON.parse(bytes.toString("utf8", open, close + 1)) as string;
  } catch {
    return undefined;
  }
}

/** The document with each found list's content left out. */
function skeletonOf(bytes: Buffer, found: Array<{ open: number; close: number }>): string {
  const parts: string[] = [];
  let from = 0;
  for (const { open, close } of found) {
    parts.push(bytes.toString("utf8", from, open + 1));
    from = close;
  }
  parts.push(bytes.toString("utf8", from));
  return parts.join("");
}
