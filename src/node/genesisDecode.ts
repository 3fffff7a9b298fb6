import protobuf from "protobufjs";
import { fieldKind } from "../codec/fieldKinds.js";
import type { Proto3JsonParser } from "../codec/json/parseProto3.js";
import type { ProtoMessage } from "../codec/json/renderProto3.js";

/** Entries of a long list decoded between two turns of the event loop (and a chunk of a scanned list). */
export const DECODE_STEP = 10_000;

/** A long list of a module's genesis JSON that is not in `json`: its raw entries come a chunk at a time. */
export interface ChunkedList {
  field: string;
  entries: number;
  chunks(): Iterable<unknown[]>;
}

/**
 * A module's GenesisState decoded as the parser decodes it, with its long lists (accounts,
 * balances, ...) decoded entry by entry and a turn of the event loop every DECODE_STEP
 * entries, so that the import's progress lines keep coming. `chunked` lists (left empty in
 * `json` by the genesis scanner) are parsed and decoded a chunk at a time, so their raw
 * entries are never all in memory. An error names the field as the parser does
 * ("accounts[5].address: ..."). `onEntries` counts the list entries decoded. The long lists
 * named by `stream` are not kept in the state: each decoded chunk goes to `stream.entries`.
 */
export async function decodeInSteps(
  parser: Proto3JsonParser,
  type: protobuf.Type,
  json: unknown,
  onEntries: (n: number) => void,
  chunked: ChunkedList[] = [],
  stream?: DecodedStream,
): Promise<ProtoMessage> {
  if (!json || typeof json !== "object" || Array.isArray(json)) return parser.parse(type, json);
  const short: Record<string, unknown> = {};
  const long: Array<[protobuf.Field, Iterable<unknown[]>]> = [];
  const lists = new Map(chunked.map((list) => [list.field, list]));
  for (const [key, value] of Object.entries(json)) {
    const field = longListField(type, key);
    const list = lists.get(key);
    if (list && field) long.push([field, list.chunks()]);
    else if (list)
      short[key] = [...list.chunks()].flat(); // another spelling of the field: the parser decodes it, whole
    else if (field && Array.isArray(value) && value.length > DECODE_STEP) long.push([field, inSteps(value)]);
    else short[key] = value;
  }
  const state = parser.parse(type, short);
  onEntries(listEntries(short));
  for (const [field, chunks] of long) {
    const kind = fieldKind(field);
    const streamed = stream?.lists.includes(field.name) ?? false;
    const decoded: unknown[] = [];
    let first = 0;
    for (const chunk of chunks) {
      const part: unknown[] = [];
      for (const entry of chunk) part.push(parser.parseValue(kind, entry, `${field.name}[${first + part.length}]`));
      if (streamed) stream!.entries(field.name, part as ProtoMessage[], first);
      else for (const entry of part) decoded.push(entry);
      first += chunk.length;
      onEntries(chunk.length);
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (!streamed) state[field.name] = decoded;
  }
  return state;
}

/** Where the decoded chunks of some long lists go instead of the state (a module's GenesisImport). */
export interface DecodedStream {
  readonly lists: readonly string[];
  entries(list: string, entries: ProtoMessage[], first: number): void;
}

/** A repeated field (not a map) under its proto name: the lists decoded entry by entry. */
function longListField(type: protobuf.Type, key: string): protobuf.Field | undefined {
  const field = type.fields[key];
  return field?.repeated && !(field instanceof protobuf.MapField) ? field : undefined;
}

function* inSteps(list: unknown[]): Iterable<unknown[]> {
  for (let i = 0; i < list.length; i += DECODE_STEP) yield list.slice(i, i + DECODE_STEP);
}

/** How many entries the top-level lists of a module's genesis JSON hold. */
export function listEntries(json: unknown): number {
  if (!json || typeof json !== "object") return 0;
  let entries = 0;
  for (const value of Object.values(json)) if (Array.isArray(value)) entries += value.length;
  return entries;
}
