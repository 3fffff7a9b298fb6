import crypto from "node:crypto";
import fs from "node:fs";
import type { Codec } from "../codec/codec.js";
import { JsonInputError } from "../codec/json/parseProto3.js";
import type { ProtoMessage } from "../codec/json/renderProto3.js";
import type { ChainInfo, NodeModule } from "./modules/nodeModule.js";
import type { ImportProgress } from "./genesisProgress.js";
import { decodeInSteps, listEntries } from "./genesisDecode.js";

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
  /** Each module's decoded and validated GenesisState. */
  states: Map<string, ProtoMessage>;
  /** SHA-256 (hex) of the file's bytes. */
  sha256: string;
}

const READ_CHUNK = 16 << 20;

/** Reads and validates the whole genesis before anything is written, so a bad one leaves the store untouched. */
export async function readGenesis(
  file: string,
  modules: NodeModule[],
  codec: Codec,
  chain: Omit<ChainInfo, "chainId">,
  progress?: ImportProgress,
): Promise<ParsedGenesis> {
  let doc: GenesisDoc;
  let sha256: string;
  try {
    const { bytes, hash } = readHashed(file, progress);
    sha256 = hash;
    progress?.begin("parsing the JSON", "MB", bytes.length / 2 ** 20);
    doc = JSON.parse(bytes.toString("utf8")) as GenesisDoc;
    progress?.advance(bytes.length / 2 ** 20);
    progress?.end();
  } catch (err) {
    throw new GenesisError(`${file}: ${(err as Error).message}`);
  }
  if (typeof doc.chain_id !== "string" || doc.chain_id === "") throw new GenesisError(`${file}: chain_id: must be a non-empty string`);
  if (typeof doc.genesis_time !== "string" || Number.isNaN(Date.parse(doc.genesis_time))) {
    throw new GenesisError(`${file}: genesis_time: must be an RFC 3339 time`);
  }
  const appState = doc.app_state ?? {};
  const states = new Map<string, ProtoMessage>();
  progress?.begin(
    "decoding and validating app_state",
    "entries",
    modules.reduce((n, m) => n + listEntries(appState[m.name]), 0),
  );
  for (const module of modules) {
    const where = `${file}: app_state.${module.name}`;
    try {
      const state = await decodeInSteps(codec.parser, codec.type(module.genesisType), appState[module.name] ?? {}, (n) => progress?.advance(n));
      module.validateGenesis(state, { chain: { ...chain, chainId: doc.chain_id }, codec });
      states.set(module.name, state);
    } catch (err) {
      const message = err instanceof JsonInputError ? err.message : (err as Error).message;
      throw new GenesisError(`${where}.${message}`);
    }
  }
  progress?.end();
  return { doc, states, sha256 };
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
