import protobuf from "protobufjs";
import { fieldKind } from "../codec/fieldKinds.js";
import type { Proto3JsonParser } from "../codec/json/parseProto3.js";
import type { ProtoMessage } from "../codec/json/renderProto3.js";

/** Entries of a long list decoded between two turns of the event loop. */
export const DECODE_STEP = 10_000;

/**
 * A module's GenesisState decoded as the parser decodes it, with its long lists (accounts,
 * balances, ...) decoded entry by entry and a turn of the event loop every DECODE_STEP
 * entries, so that the import's progress lines keep coming. An error names the field as the
 * parser does ("accounts[5].address: ..."). `onEntries` counts the list entries decoded.
 */
export async function decodeInSteps(parser: Proto3JsonParser, type: protobuf.Type, json: unknown, onEntries: (n: number) => void): Promise<ProtoMessage> {
  if (!json || typeof json !== "object" || Array.isArray(json)) return parser.parse(type, json);
  const short: Record<string, unknown> = {};
  const long: Array<[protobuf.Field, unknown[]]> = [];
  for (const [key, value] of Object.entries(json)) {
    const field = type.fields[key]; // a list under its proto name (other spellings: the parser, whole)
    if (field?.repeated && !(field instanceof protobuf.MapField) && Array.isArray(value) && value.length > DECODE_STEP) long.push([field, value]);
    else short[key] = value;
  }
  const state = parser.parse(type, short);
  onEntries(listEntries(short));
  for (const [field, list] of long) {
    const kind = fieldKind(field);
    const decoded: unknown[] = new Array(list.length);
    for (let i = 0; i < list.length; i++) {
      decoded[i] = parser.parseValue(kind, list[i], `${field.name}[${i}]`);
      if ((i + 1) % DECODE_STEP === 0) {
        onEntries(DECODE_STEP);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    onEntries(list.length % DECODE_STEP);
    state[field.name] = decoded;
  }
  return state;
}

/** How many entries the top-level lists of a module's genesis JSON hold. */
export function listEntries(json: unknown): number {
  if (!json || typeof json !== "object") return 0;
  let entries = 0;
  for (const value of Object.values(json)) if (Array.isArray(value)) entries += value.length;
  return entries;
}
