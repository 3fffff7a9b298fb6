import { expect } from "chai";
import path from "node:path";
import { initHome } from "../../src/commands/init.js";
import { Codec } from "../../src/codec/codec.js";
import { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { ImportProgress } from "../../src/node/genesisProgress.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { addGenesisAccounts } from "../helpers/largeGenesis.js";
import { tempDir } from "../helpers/tempDir.js";

const codec = new Codec();

describe("genesis import progress lines", () => {
  it("names each phase of a first start with its count and time, and a later start prints none", async () => {
    const home = path.join(tempDir(), "home");
    initHome({ home, chainId: "devnet-1", accounts: 4, denom: "uhub", mnemonic: TEST_MNEMONIC });
    addGenesisAccounts(home, 500);
    const lines: string[] = [];
    const open = () => EmbeddedNode.open({ home, bech32Prefix: "hub", keepRecent: 100, moniker: "test", codec, importProgress: (l) => lines.push(l) });
    await (await open()).close();
    const ends = lines.filter((l) => / in \d+\.\d s$/.test(l)).map((l) => l.replace(/ in \d+\.\d s$/, ""));
    expect(ends.map((l) => l.replace(/[\d,]+/g, "N"))).to.deep.equal([
      "[genesis] reading genesis.json: N MB",
      "[genesis] parsing the JSON (long lists: with their decoding): N MB",
      "[genesis] decoding and validating app_state: N entries",
      "[genesis] writing the modules' state: N keys",
      "[genesis] sorting the keys (a step: merged keys): N keys",
      "[genesis] hashing the state: N keys",
      "[genesis] committing to the store: N LevelDB entries",
    ]);
    const written = Number(ends[3]!.match(/([\d,]+) keys/)![1]!.replace(/,/g, ""));
    expect(written).to.be.greaterThan(1000); // 504 accounts and their balances, at least
    expect(lines.find((l) => l.startsWith("[genesis] writing the modules' state ("))).to.match(/\(([\d,]+) keys\)\.\.\.$/);
    lines.length = 0;
    await (await open()).close();
    expect(lines).to.deep.equal([]);
  });

  it("gives count, total, rate and ETA while a phase advances", () => {
    const lines: string[] = [];
    const progress = new ImportProgress((l) => lines.push(l), 0);
    try {
      progress.begin("writing", "keys", 10);
      progress.advance(5);
      progress.end();
    } finally {
      progress.close();
    }
    expect(lines[0]).to.equal("[genesis] writing (10 keys)...");
    expect(lines[1]).to.match(/^\[genesis\] writing: 5 of 10 keys \([\d,]+\/s, ETA \d+ s; \d+ s so far\)$/);
    expect(lines[2]).to.match(/^\[genesis\] writing: 5 keys in \d+\.\d s$/);
  });
});
