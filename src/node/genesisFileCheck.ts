import crypto from "node:crypto";
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import type { VersionedStore } from "./store/versionedStore.js";
import { utf8 } from "./store/moduleStore.js";
import { GenesisError } from "./genesis.js";

/** Metadata key of the stamp of the genesis.json whose hash a start last checked. */
const STAMP_KEY = utf8("genesis_file");

/** What the store keeps of the genesis it was started from (genesisFacts.ts's GenesisFacts). */
interface StartedFrom {
  chain_id?: string;
  genesis_sha256?: string;
}

interface CheckedFile {
  /** Device, inode, size, mtime and ctime (ns) of the file when its hash was checked. */
  stamp: string;
  sha256: string;
}

/**
 * The file's identity as the file system keeps it. Writing the file changes its ctime (which no
 * tool sets back) and its mtime; replacing it changes its inode.
 */
export function fileStamp(file: string): string {
  const s = fs.statSync(file, { bigint: true });
  return [s.dev, s.ino, s.size, s.mtimeNs, s.ctimeNs].join(":");
}

/**
 * Checks that genesis.json is still the file the store was started from. Hashing a large
 * genesis reads all of it, so a start hashes the file only when
 * its stamp differs from the one kept when it was last hashed, as git trusts a file's stat.
 */
export async function checkGenesisFile(store: VersionedStore, file: string, facts: StartedFrom): Promise<void> {
  const stamp = fileStamp(file);
  const kept = await store.getMeta(STAMP_KEY);
  const checked = kept ? (JSON.parse(new TextDecoder().decode(kept)) as CheckedFile) : undefined;
  if (checked?.stamp === stamp && checked.sha256 === facts.genesis_sha256) return;
  const sha256 = await fileSha256(file);
  checkSameGenesis(file, facts, sha256);
  await store.putMeta(STAMP_KEY, utf8(JSON.stringify({ stamp, sha256 } satisfies CheckedFile)));
}

/** SHA-256 (hex) of a file's bytes, read as a stream: a hash, not a parse. */
async function fileSha256(file: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  await pipeline(fs.createReadStream(file, { highWaterMark: 1 << 20 }), hash);
  return hash.digest("hex");
}

/** Refuses a genesis.json that is not the one the store was started from (as the real node checks its genesis document's hash). */
function checkSameGenesis(file: string, facts: StartedFrom, sha256: string): void {
  if (facts.genesis_sha256 === sha256) return;
  throw new GenesisError(
    `${file} is not the genesis the store under data/ was started from (chain ${facts.chain_id ?? "(unknown)"}): ` +
      `its SHA-256 is ${sha256}, the store's genesis had ${facts.genesis_sha256}; put that file back, or remove data/ to start a new chain from this one`,
  );
}
