import type { GenesisDoc, ParsedGenesis } from "./genesis.js";
import { GenesisError } from "./genesis.js";
import type { StateBatch, VersionedStore } from "./store/versionedStore.js";
import { utf8 } from "./store/moduleStore.js";
import { checkGenesisFile } from "./genesisFileCheck.js";

const FACTS_KEY = utf8("chain");

/**
 * What the node keeps of its genesis in the store's metadata: everything a later start
 * reads, so that it starts from the store whatever the genesis's size. (The validators
 * and the modules' state are in the store itself.)
 */
export interface GenesisFacts {
  chain_id: string;
  genesis_time: string;
  initial_height: string;
  consensus_params: Record<string, unknown>;
  /** SHA-256 (hex) of genesis.json's bytes: a later start checks that the file is still this one. */
  genesis_sha256: string;
}

export function genesisFactsOf(doc: GenesisDoc, sha256: string): GenesisFacts {
  return {
    chain_id: doc.chain_id,
    genesis_time: doc.genesis_time,
    initial_height: String(doc.initial_height ?? "1"),
    consensus_params: (doc.consensus_params as Record<string, unknown> | undefined) ?? {},
    genesis_sha256: sha256,
  };
}

export function putGenesisFacts(batch: StateBatch, facts: GenesisFacts): void {
  batch.putMeta(FACTS_KEY, utf8(JSON.stringify(facts)));
}

/** The facts a store keeps; a store written before they were kept has only chain_id and genesis_time. */
export async function storedGenesisFacts(store: VersionedStore): Promise<Partial<GenesisFacts> | undefined> {
  const stored = await store.getMeta(FACTS_KEY);
  return stored ? (JSON.parse(new TextDecoder().decode(stored)) as Partial<GenesisFacts>) : undefined;
}

/**
 * The genesis facts of a store already started, once genesis.json's hash is checked against
 * them. A store written before the facts were kept (it has only the chain id) gets them from
 * the whole genesis this once.
 */
export async function resumedGenesisFacts(store: VersionedStore, file: string, readWhole: () => Promise<ParsedGenesis>): Promise<GenesisFacts> {
  const stored = await storedGenesisFacts(store);
  if (stored?.genesis_sha256) {
    await checkGenesisFile(store, file, stored);
    return stored as GenesisFacts;
  }
  const genesis = await readWhole();
  if (stored?.chain_id !== genesis.doc.chain_id) {
    throw new GenesisError(
      `the store under data/ belongs to chain ${stored?.chain_id ?? "(unknown)"}, but genesis.json is for ${genesis.doc.chain_id}; remove data/ to start the new chain`,
    );
  }
  const facts = genesisFactsOf(genesis.doc, genesis.sha256);
  await store.putMeta(FACTS_KEY, utf8(JSON.stringify(facts)));
  return facts;
}
