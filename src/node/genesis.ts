import crypto from "node:crypto";
import fs from "node:fs";
import type { Codec } from "../codec/codec.js";
import { JsonInputError } from "../codec/json/parseProto3.js";
import type { ProtoMessage } from "../codec/json/renderProto3.js";
import type { ChainInfo, NodeModule } from "./modules/nodeModule.js";

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

/** Reads and validates the whole genesis before anything is written, so a bad one leaves the store untouched. */
export function readGenesis(file: string, modules: NodeModule[], codec: Codec, chain: Omit<ChainInfo, "chainId">): ParsedGenesis {
  let doc: GenesisDoc;
  let sha256: string;
  try {
    const bytes = fs.readFileSync(file);
    sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
    doc = JSON.parse(bytes.toString("utf8")) as GenesisDoc;
  } catch (err) {
    throw new GenesisError(`${file}: ${(err as Error).message}`);
  }
  if (typeof doc.chain_id !== "string" || doc.chain_id === "") throw new GenesisError(`${file}: chain_id: must be a non-empty string`);
  if (typeof doc.genesis_time !== "string" || Number.isNaN(Date.parse(doc.genesis_time))) {
    throw new GenesisError(`${file}: genesis_time: must be an RFC 3339 time`);
  }
  const appState = doc.app_state ?? {};
  const states = new Map<string, ProtoMessage>();
  for (const module of modules) {
    const where = `${file}: app_state.${module.name}`;
    try {
      const state = codec.parser.parse(codec.type(module.genesisType), appState[module.name] ?? {});
      module.validateGenesis(state, { chain: { ...chain, chainId: doc.chain_id }, codec });
      states.set(module.name, state);
    } catch (err) {
      const message = err instanceof JsonInputError ? err.message : (err as Error).message;
      throw new GenesisError(`${where}.${message}`);
    }
  }
  return { doc, states, sha256 };
}
