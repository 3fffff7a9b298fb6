import { expect } from "chai";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Codec } from "../../src/codec/codec.js";
import { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { VersionedStore } from "../../src/node/store/versionedStore.js";
import { initHome } from "../../src/commands/init.js";
import { openDevNode, TEST_MNEMONIC } from "../helpers/devNode.js";
import { tempDir } from "../helpers/tempDir.js";
import { fileStamp } from "../../src/node/genesisFileCheck.js";

const codec = new Codec();
const reopen = (home: string) => EmbeddedNode.open({ home, bech32Prefix: "hub", keepRecent: 100, moniker: "test", codec });
const genesisFile = (home: string) => path.join(home, "config", "genesis.json");
const chainMeta = Uint8Array.from(Buffer.from("chain"));

async function storeMetaOf(store: VersionedStore): Promise<Record<string, unknown>> {
  return JSON.parse(Buffer.from((await store.getMeta(chainMeta))!).toString("utf8")) as Record<string, unknown>;
}

async function storeMeta(home: string): Promise<Record<string, unknown>> {
  const store = await VersionedStore.open(path.join(home, "data", "state.db"));
  try {
    return await storeMetaOf(store);
  } finally {
    await store.close();
  }
}

describe("start-up from the store: the genesis kept as facts and a hash", () => {
  it("keeps chain id, genesis time, consensus params and the file's SHA-256 in the store, and resumes from them", async () => {
    const { node, home } = await openDevNode({ accounts: 4 });
    const doc = JSON.parse(fs.readFileSync(genesisFile(home), "utf8")) as Record<string, unknown>;
    await node.close();
    const meta = await storeMeta(home);
    expect(meta).to.deep.equal({
      chain_id: doc.chain_id,
      genesis_time: doc.genesis_time,
      initial_height: "1",
      consensus_params: doc.consensus_params,
      genesis_sha256: crypto
        .createHash("sha256")
        .update(fs.readFileSync(genesisFile(home)))
        .digest("hex"),
    });
    const again = await reopen(home);
    try {
      expect(again.chain.chainId).to.equal(doc.chain_id);
      expect(again.genesis.consensus_params).to.deep.equal(doc.consensus_params);
      expect(again.height).to.equal(1);
      expect(await again.genesisDocument()).to.deep.equal(doc); // the RPC's `genesis`, read from the file when asked
    } finally {
      await again.close();
    }
  });

  it("refuses a genesis.json changed after the first start, naming both hashes, and starts again once it is put back", async () => {
    const { node, home } = await openDevNode({ accounts: 4 });
    await node.close();
    const original = fs.readFileSync(genesisFile(home));
    // one byte more: the same chain id and the same document, but not the same file
    fs.writeFileSync(genesisFile(home), Buffer.concat([original, Buffer.from(" ")]));
    let error: Error | undefined;
    await reopen(home).then(
      (n) => n.close(),
      (err: Error) => (error = err),
    );
    expect(error?.message).to.match(
      /genesis\.json is not the genesis the store under data\/ was started from \(chain devnet-1\): its SHA-256 is [0-9a-f]{64}, the store's genesis had [0-9a-f]{64}; put that file back, or remove data\/ to start a new chain from this one$/,
    );
    fs.writeFileSync(genesisFile(home), original);
    const again = await reopen(home);
    await again.close();
  });

  it("keeps the stamp of the genesis.json it hashed (later starts skip the hash), and refuses a same-size edit whose mtime was put back", async () => {
    const { node, home } = await openDevNode({ accounts: 4 });
    await node.close();
    const file = genesisFile(home);
    await (await reopen(home)).close(); // the first start from the store hashes the file and keeps its stamp
    const store = await VersionedStore.open(path.join(home, "data", "state.db"));
    try {
      const checked = JSON.parse(Buffer.from((await store.getMeta(Uint8Array.from(Buffer.from("genesis_file"))))!).toString("utf8")) as Record<string, unknown>;
      expect(checked).to.deep.equal({ stamp: fileStamp(file), sha256: (await storeMetaOf(store)).genesis_sha256 });
    } finally {
      await store.close();
    }
    await (await reopen(home)).close(); // the stamp matches: no hash, still starts

    const before = fs.statSync(file);
    const original = fs.readFileSync(file);
    const edited = Buffer.from(original);
    edited[original.lastIndexOf("}")] = 0x20; // the same size, another file (no longer JSON even)
    fs.writeFileSync(file, edited);
    fs.utimesSync(file, before.atime, before.mtime);
    let error: Error | undefined;
    await reopen(home).then(
      (n) => n.close(),
      (err: Error) => (error = err),
    );
    expect(error?.message).to.match(/genesis\.json is not the genesis the store under data\/ was started from/);
    fs.writeFileSync(file, original);
    await (await reopen(home)).close();
  });

  it("gives a store written before the facts were kept its facts from the whole genesis, once, and refuses another chain's genesis", async () => {
    const { node, home } = await openDevNode({ accounts: 4 });
    await node.close();
    const doc = JSON.parse(fs.readFileSync(genesisFile(home), "utf8")) as { chain_id: string; genesis_time: string };
    const writeOldMeta = async (chainId: string) => {
      const store = await VersionedStore.open(path.join(home, "data", "state.db"));
      await store.putMeta(chainMeta, Uint8Array.from(Buffer.from(JSON.stringify({ chain_id: chainId, genesis_time: doc.genesis_time }))));
      await store.close();
    };
    await writeOldMeta("other-chain-1");
    let error: Error | undefined;
    await reopen(home).then(
      (n) => n.close(),
      (err: Error) => (error = err),
    );
    expect(error?.message).to.equal(
      "the store under data/ belongs to chain other-chain-1, but genesis.json is for devnet-1; remove data/ to start the new chain",
    );

    await writeOldMeta(doc.chain_id);
    const upgraded = await reopen(home);
    await upgraded.close();
    expect((await storeMeta(home)).genesis_sha256).to.equal(
      crypto
        .createHash("sha256")
        .update(fs.readFileSync(genesisFile(home)))
        .digest("hex"),
    );
  });

  it("imports again into a store left at version 0 by an import cut short, dropping what that import wrote", async () => {
    const home = path.join(tempDir(), "home");
    initHome({ home, chainId: "devnet-1", accounts: 4, denom: "uhub", mnemonic: TEST_MNEMONIC });
    const stray = Uint8Array.from(Buffer.from("left-by-a-cut-import"));
    const store = await VersionedStore.open(path.join(home, "data", "state.db"));
    await store.putMeta(stray, Uint8Array.of(1));
    await store.close();
    const node = await reopen(home);
    try {
      expect(node.height).to.equal(1);
      expect(await node.store.getMeta(stray)).to.equal(undefined);
      expect((await storeMetaOf(node.store)).chain_id).to.equal("devnet-1");
    } finally {
      await node.close();
    }
  });
});
