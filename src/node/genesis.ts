import crypto from "node:crypto";
import fs from "node:fs";
import type { Codec } from "../codec/codec.js";
import { JsonInputError } from "../codec/json/parseProto3.js";
import type { ProtoMessage } from "../codec/json/renderProto3.js";
import type { ChainInfo, ExecContext, ModuleContext, NodeModule } from "./modules/nodeModule.js";
import type { ImportProgress } from "./genesisProgress.js";
import { DECODE_STEP, decodeInSteps, listEntries, type ChunkedList, type DecodedStream } from "./genesisDecode.js";
import { parseChunk, scanGenesis, type ListChunks } from "./genesisScan.js";

export class GenesisError extends Error {}

/** {home}/config/genesis.json in the real format: app_state maps module → GenesisState (proto3 JSON). */
export interface GenesisDoc {
  genesis_time: string;
  chain_id: string;
  initial_height?: string;
  app_state: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ParsedGenesis {
  doc: GenesisDoc;
  /** Each module's decoded and validated GenesisState (but the modules written already: `imported`). */
  states: Map<string, ProtoMessage>;
  /** SHA-256 (hex) of the file's bytes. */
  sha256: string;
  /** The modules checked and written in one pass (NodeModule.genesisImport) through the importer's contexts. */
  imported: Set<string>;
}

/**
 * A first start's importer: the contexts, over the import's in-memory layer, in which the modules
 * that have a genesisImport check and write their genesis as it is decoded.
 */
export interface GenesisImporter {
  context(module: string, doc: GenesisDoc): ExecContext;
  /** Drops what was written: the document is decoded again from its start (parsed whole). */
  restart(): void;
}

const READ_CHUNK = 16 << 20;

/** Reads and validates the whole genesis before anything is written, so a bad one leaves the store untouched. */
/** A list of app_state this long (bytes) is parsed a chunk at a time rather than with the document. */
const CHUNKED_LIST_BYTES = 1 << 20;

/** Reads and validates the whole genesis before anything is written, so a bad one leaves the store untouched. */
export async function readGenesis(
  file: string,
  modules: NodeModule[],
  codec: Codec,
  chain: Omit<ChainInfo, "chainId">,
  progress?: ImportProgress,
  importer?: GenesisImporter,
): Promise<ParsedGenesis> {
  let bytes: Buffer;
  let sha256: string;
  try {
    ({ bytes, hash: sha256 } = readHashed(file, progress));
  } catch (err) {
    throw new GenesisError(`${file}: ${(err as Error).message}`);
  }
  progress?.begin("parsing the JSON (long lists: with their decoding)", "MB", bytes.length / 2 ** 20);
  const scanned = scanGenesis(bytes, DECODE_STEP, CHUNKED_LIST_BYTES);
  const skeleton = scanned ? parseOrUndefined(scanned.skeleton) : undefined;
  progress?.advance(bytes.length / 2 ** 20);
  progress?.end();
  if (scanned && skeleton) {
    try {
      const imported = new Set<string>();
      const states = await decodeStates(file, skeleton, modules, codec, chain, progress, chunkedLists(bytes, scanned.lists), importer, imported);
      return { doc: skeleton, states, sha256, imported };
    } catch (err) {
      if (!(err instanceof UnparsableChunk)) throw err;
    }
  }
  // not scanned (or a chunk did not parse): the whole document, for JSON.parse's own error
  importer?.restart();
  let doc: GenesisDoc;
  try {
    doc = JSON.parse(bytes.toString("utf8")) as GenesisDoc;
  } catch (err) {
    throw new GenesisError(`${file}: ${(err as Error).message}`);
  }
  const imported = new Set<string>();
  return { doc, states: await decodeStates(file, doc, modules, codec, chain, progress, new Map(), importer, imported), sha256, imported };
}

async function decodeStates(
  file: string,
  doc: GenesisDoc,
  modules: NodeModule[],
  codec: Codec,
  chain: Omit<ChainInfo, "chainId">,
  progress: ImportProgress | undefined,
  chunked: Map<string, ChunkedList[]>,
  importer: GenesisImporter | undefined,
  imported: Set<string>,
): Promise<Map<string, ProtoMessage>> {
  if (typeof doc.chain_id !== "string" || doc.chain_id === "") throw new GenesisError(`${file}: chain_id: must be a non-empty string`);
  if (typeof doc.genesis_time !== "string" || Number.isNaN(Date.parse(doc.genesis_time))) {
    throw new GenesisError(`${file}: genesis_time: must be an RFC 3339 time`);
  }
  const appState = doc.app_state ?? {};
  const states = new Map<string, ProtoMessage>();
  const entriesOf = (name: string) => listEntries(appState[name]) + (chunked.get(name) ?? []).reduce((n, list) => n + list.entries, 0);
  progress?.begin(
    "decoding and validating app_state (auth and bank: written as they come)",
    "entries",
    modules.reduce((n, m) => n + entriesOf(m.name), 0),
  );
  for (const module of modules) {
    const where = `${file}: app_state.${module.name}`;
    try {
      const json = appState[module.name] ?? {};
      const decode = (stream?: DecodedStream) =>
        decodeInSteps(codec.parser, codec.type(module.genesisType), json, (n) => progress?.advance(n), chunked.get(module.name), stream);
      const onePass = importer && module.genesisImport?.(importer.context(module.name, doc));
      if (onePass) {
        // the entries are checked as they are decoded; a refusal waits for the end of the decoding,
        // so that a decoding error further on is the one reported, as when the whole state is checked after
        let refused: Error | undefined;
        const stream: DecodedStream = {
          lists: onePass.lists,
          entries(list, entries, first) {
            if (refused !== undefined) return;
            try {
              onePass.entries(list, entries, first);
            } catch (err) {
              refused = err as Error;
            }
          },
        };
        const rest = await decode(stream);
        if (refused !== undefined) throw refused;
        onePass.end(rest);
        imported.add(module.name);
      } else {
        const state = await decode();
        await validated(module, state, { chain: { ...chain, chainId: doc.chain_id }, codec });
        states.set(module.name, state);
      }
    } catch (err) {
      if (err instanceof UnparsableChunk) throw err;
      const message = err instanceof JsonInputError ? err.message : (err as Error).message;
      throw new GenesisError(`${where}.${message}`);
    }
  }
  progress?.end();
  return states;
}

/** A module's validateGenesis, by its steps (a turn of the event loop between) where it has them. */
async function validated(module: NodeModule, state: ProtoMessage, ctx: ModuleContext): Promise<void> {
  if (!module.genesisValidationSteps) return module.validateGenesis(state, ctx);
  const steps = module.genesisValidationSteps(state, ctx);
  while (!steps.next().done) await new Promise((resolve) => setImmediate(resolve));
}

/** A chunk of a scanned list that is not exactly its entries in JSON: the document is parsed whole instead. */
class UnparsableChunk extends Error {}

/** The scanned lists by module, each parsing its chunks as they are asked for. */
function chunkedLists(bytes: Buffer, lists: ListChunks[]): Map<string, ChunkedList[]> {
  const byModule = new Map<string, ChunkedList[]>();
  for (const list of lists) {
    const chunks = function* () {
      for (const chunk of list.chunks) {
        const entries = parseChunk(bytes, chunk);
        if (!entries) throw new UnparsableChunk();
        yield entries;
      }
    };
    byModule.set(list.module, [...(byModule.get(list.module) ?? []), { field: list.field, entries: list.entries, chunks }]);
  }
  return byModule;
}

function parseOrUndefined(text: string): GenesisDoc | undefined {
  try {
    return JSON.parse(text) as GenesisDoc;
  } catch {
    return undefined;
  }
}

/** How many entries the states' lists hold (accounts, balances, ...): about as many keys as the import writes. */
export function genesisEntries(states: Map<string, ProtoMessage>): number {
  let entries = 0;
  for (const state of states.values()) entries += listEntries(state);
  return entries;
}

/** The file's bytes and their SHA-256, read in chunks (a progress line can follow each). */
function readHashed(file: string, progress?: ImportProgress): { bytes: Buffer; hash: string } {
  const size = fs.statSync(file).size;
  const bytes = Buffer.allocUnsafe(size);
  const hash = crypto.createHash("sha256");
  progress?.begin("reading genesis.json", "MB", size / 2 ** 20);
  const fd = fs.openSync(file, "r");
  try {
    let read = 0;
    while (read < size) {
      const n = fs.readSync(fd, bytes, read, Math.min(READ_CHUNK, size - read), read);
      if (n === 0) break;
      hash.update(bytes.subarray(read, read + n));
      read += n;
      progress?.advance(n / 2 ** 20);
    }
    progress?.end();
    return { bytes: bytes.subarray(0, read), hash: hash.digest("hex") };
  } finally {
    fs.closeSync(fd);
  }
}
