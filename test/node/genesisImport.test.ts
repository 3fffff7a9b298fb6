import { INDEX_STORE } from "../../src/node/indexes/indexKeys.js";
import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { Codec } from "../../src/codec/codec.js";
import { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { readGenesis } from "../../src/node/genesis.js";
import { execContextOver } from "../../src/node/genesisImporter.js";
import { getAppHash, nextAppHash } from "../../src/node/chain/blockStore.js";
import { NODE_MODULES } from "../../src/node/modules/index.js";
import { paramSubspacesOf } from "../../src/node/modules/nodeModule.js";
import { CacheLayer } from "../../src/node/store/cacheLayer.js";
import { EMPTY_STATE } from "../../src/node/store/genesisLayer.js";
import { chunkedGenesisHome, errorOf } from "../helpers/largeGenesis.js";

const codec = new Codec();
const open = (home: string) => EmbeddedNode.open({ home, bech32Prefix: "hub", keepRecent: 100, moniker: "test", codec });

/** Every module's whole state validated, then every module's initGenesis in order: the import as it was before auth and bank were written as they are decoded. */
async function writesOfWholeStates(file: string) {
  const genesis = await readGenesis(file, NODE_MODULES, codec, { bech32Prefix: "hub" });
  expect(genesis.imported.size).to.equal(0);
  const layer = new CacheLayer(EMPTY_STATE);
  const base = { chain: { chainId: genesis.doc.chain_id, bech32Prefix: "hub" }, codec, paramSubspaces: paramSubspacesOf(NODE_MODULES) };
  for (const module of NODE_MODULES) {
    await module.initGenesis(genesis.states.get(module.name) ?? {}, execContextOver(layer, module.name, base, 1, new Date(genesis.doc.genesis_time), []));
  }
  return layer.sortedWrites();
}

type Doc = { app_state: { auth: { accounts: Array<{ address: string; sequence: string }> }; bank: { supply: unknown[] } } };

describe("genesis import: auth and bank checked and written as they are decoded", () => {
  it("writes the same state, with the same app hash, as validating every module then running each initGenesis", async () => {
    const home = chunkedGenesisHome();
    const expected = await writesOfWholeStates(path.join(home, "config", "genesis.json"));
    const node = await open(home);
    try {
      expect(await getAppHash(node.store, 1)).to.equal(nextAppHash("", expected));
      const reader = node.store.reader(1);
      let count = 0;
      for await (const [key, value] of reader.iterate(new Uint8Array())) {
        if (Buffer.from(key).toString("latin1").startsWith(`${INDEX_STORE}/`)) continue; // derived data, not module state (src/node/indexes/)
        const write = expected[count++]!;
        expect(Buffer.from(key).toString("hex")).to.equal(Buffer.from(write.key).toString("hex"));
        expect(Buffer.from(value).equals(Buffer.from(write.value!))).to.equal(true);
      }
      expect(count).to.equal(expected.length);
      expect(count).to.be.greaterThan(24_000); // the accounts and their balances
    } finally {
      await node.close();
    }
  });

  it("refuses a bad genesis with the words of the checks of the whole state, and leaves no store", async () => {
    const home = chunkedGenesisHome();
    const file = path.join(home, "config", "genesis.json");
    const good = fs.readFileSync(file, "utf8");
    const refusalOf = async (change: (doc: Doc) => void) => {
      const doc = JSON.parse(good) as Doc;
      change(doc);
      fs.writeFileSync(file, JSON.stringify(doc));
      const whole = await errorOf(() => readGenesis(file, NODE_MODULES, codec, { bech32Prefix: "hub" }));
      expect(await errorOf(() => open(home))).to.equal(whole);
      expect(fs.existsSync(path.join(home, "data", "state.db"))).to.equal(false);
      return whole.slice(file.length + 2);
    };
    const accounts = (doc: Doc) => doc.app_state.auth.accounts;
    // a duplicate deep in the second chunk
    expect(await refusalOf((doc) => (accounts(doc)[11_501]!.address = accounts(doc)[11_500]!.address))).to.match(
      /^app_state\.auth\.accounts\[11501\]\.address: duplicate account hub1/,
    );
    // a duplicate in the first chunk and an entry that does not decode in the second: the decoding's error, as before
    expect(
      await refusalOf((doc) => {
        accounts(doc)[6]!.address = accounts(doc)[5]!.address;
        accounts(doc)[11_000]!.sequence = "x";
      }),
    ).to.match(/^app_state\.auth\.accounts\[11000\]\.sequence: /);
    // the check after the long list
    expect(await refusalOf((doc) => (doc.app_state.bank.supply = [{ denom: "uhub", amount: "1" }]))).to.match(
      /^app_state\.bank\.supply: genesis supply is incorrect, expected .+, got 1uhub$/,
    );
  });
});
