import { expect } from "chai";
import path from "node:path";
import { initHome } from "../../src/commands/init.js";
import { Codec } from "../../src/codec/codec.js";
import { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { ImportProgress } from "../../src/node/genesisProgress.js";
import { DECODE_STEP } from "../../src/node/genesisDecode.js";
import { APP_HASH_STEP } from "../../src/node/chain/blockStore.js";
import { SORT_STEP } from "../../src/node/store/sortInSteps.js";
import { FIRST_COMMIT_CHUNK } from "../../src/node/store/versionedStore.js";
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
      "[genesis] decoding and validating app_state (auth and bank: written as they come): N entries",
      "[genesis] writing the other modules' state: N keys",
      "[genesis] sorting the keys (a step: merged keys): N keys",
      "[genesis] hashing the state: N keys",
      "[genesis] building the derived indexes (delegations by validator; holders by denom; account numbers): N keys",
      "[genesis] committing to the store: N LevelDB entries",
    ]);
    const hashed = Number(ends[5]!.match(/([\d,]+) keys/)![1]!.replace(/,/g, ""));
    expect(hashed).to.be.greaterThan(1000); // 504 accounts and their balances, at least (written as they were decoded)
    expect(lines.find((l) => l.startsWith("[genesis] writing the other modules' state ("))).to.match(/\(([\d,]+) keys\)\.\.\.$/);
    lines.length = 0;
    await (await open()).close();
    expect(lines).to.deep.equal([]);
  });

  it("advances every phase in bounded steps, each a chance for a line (a line at each step here: no clock)", async () => {
    const home = path.join(tempDir(), "home");
    initHome({ home, chainId: "devnet-1", accounts: 4, denom: "uhub", mnemonic: TEST_MNEMONIC });
    addGenesisAccounts(home, 12_000); // lists over 1 MiB: parsed a chunk at a time
    const lines: string[] = [];
    const node = await EmbeddedNode.open({
      home,
      bech32Prefix: "hub",
      keepRecent: 100,
      moniker: "test",
      codec,
      importProgress: (l) => lines.push(l),
      importProgressEveryMs: 0,
    });
    await node.close();
    // the most work between two chances to print, by phase (the sort's runs and merges: SORT_STEP)
    const bounds: Record<string, number> = {
      "decoding and validating app_state (auth and bank: written as they come)": DECODE_STEP,
      "writing the other modules' state": 1,
      "sorting the keys (a step: merged keys)": SORT_STEP,
      "hashing the state": APP_HASH_STEP,
      "committing to the store": FIRST_COMMIT_CHUNK,
    };
    for (const [phase, bound] of Object.entries(bounds)) {
      const done = lines
        .filter((l) => l.startsWith(`[genesis] ${phase}: `) && l.includes("so far"))
        .map((l) => Number(l.slice(`[genesis] ${phase}: `.length).split(" ")[0]!.replace(/,/g, "")));
      const end = lines.find((l) => l.startsWith(`[genesis] ${phase}: `) && / in \d+\.\d s$/.test(l))!;
      const total = Number(end.slice(`[genesis] ${phase}: `.length).split(" ")[0]!.replace(/,/g, ""));
      const steps = [done[0]!, ...done.slice(1).map((d, i) => d - done[i]!), total - done[done.length - 1]!];
      expect(Math.max(...steps), phase).to.be.at.most(bound);
      // the accounts and balances are written while they are decoded: the other modules write a few keys
      expect(total, phase).to.be.greaterThan(phase === "writing the other modules' state" ? 10 : 20_000);
    }
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
