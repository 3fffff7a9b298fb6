import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { decodeBech32Address } from "../../src/codec/bech32.js";
import { decodeCoin, encodeCoin } from "../../src/node/modules/bank/coinValues.js";
import { balanceKey } from "../../src/node/modules/bank/keys.js";
import { modulePrefix } from "../../src/node/store/moduleStore.js";
import { VersionedStore } from "../../src/node/store/versionedStore.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { runCliToEnd, startNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";

/**
 * `export --for-zero-height` asserts the crisis module's registered invariants first (irishub
 * app/export.go): a store written behind the modules' backs is refused with the invariant's message.
 */
describe("e2e: export --for-zero-height refuses a state that breaks an invariant", function () {
  this.timeout(120_000);
  const home = path.join(tempDir(), "broken");
  const output = path.join(tempDir(), "never-written.json");

  before(async () => {
    initDevHome(home, { mnemonic: TEST_MNEMONIC, accounts: 4 });
    const node = await startNode(home); // commits the genesis
    await node.proc.stop();
    // one uhub more in the first dev account's balance, written straight into a new version of the store
    const address = JSON.parse(fs.readFileSync(path.join(home, "config", "genesis.json"), "utf8")).app_state.bank.balances[0].address as string;
    const store = await VersionedStore.open(path.join(home, "data", "state.db"));
    try {
      const key = Uint8Array.of(...modulePrefix("bank"), ...balanceKey(decodeBech32Address(address, "hub", "address"), "uhub"));
      const before = decodeCoin((await store.reader().get(key))!).amount;
      const batch = store.begin();
      batch.set(key, encodeCoin({ denom: "uhub", amount: before + 1n }));
      await store.commit(batch);
    } finally {
      await store.close();
    }
  });

  it("exits 1 with bank's total-supply message and writes nothing; a plain export still works", async () => {
    const refused = await runCliToEnd(["export", "--home", home, "--for-zero-height", "--output", output]);
    expect(refused.code, refused.output).to.equal(1);
    expect(refused.output).to.match(/invariant broken: bank: total supply invariant\n\tsum of accounts coins: \S+\n\tsupply\.Total: {10}\S+\n/);
    expect(refused.output).to.include("tx crisis invariant-broken bank total-supply");
    expect(fs.existsSync(output)).to.equal(false);
    const plain = await runCliToEnd(["export", "--home", home, "--output", output]);
    expect(plain.code, plain.output).to.equal(0);
    expect(fs.existsSync(output)).to.equal(true);
  });
});
