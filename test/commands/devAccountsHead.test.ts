import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { readDevAccountsHead } from "../../src/commands/devAccountsHead.js";
import { devAccountsPath, type DevAccounts } from "../../src/commands/home.js";
import { tempDir } from "../helpers/tempDir.js";

function homeWith(accounts: number): { home: string; dev: DevAccounts } {
  const home = tempDir();
  fs.mkdirSync(path.join(home, "config"));
  const dev: DevAccounts = {
    mnemonic: "abandon art",
    accounts: Array.from({ length: accounts }, (_, index) => ({ index, address: `hub1${"q".repeat(38)}${index}`, hd_path: `m/44'/118'/0'/0/${index}` })),
  };
  fs.writeFileSync(devAccountsPath(home), JSON.stringify(dev, null, 2));
  return { home, dev };
}

describe("the first dev accounts that start prints", () => {
  // a small file is parsed whole, a large one (over 256 KiB) read as a stream that stops after the first ones
  for (const accounts of [3, 12, 5000]) {
    it(`${accounts} accounts: the mnemonic, the first ten, and whether there are more`, async () => {
      const { home, dev } = homeWith(accounts);
      expect(fs.statSync(devAccountsPath(home)).size > 1 << 18).to.equal(accounts === 5000);
      expect(await readDevAccountsHead(home, 10)).to.deep.equal({ mnemonic: dev.mnemonic, accounts: dev.accounts.slice(0, 10), more: accounts > 10 });
    });
  }

  it("no dev-accounts.json: nothing", async () => {
    expect(await readDevAccountsHead(tempDir(), 10)).to.equal(undefined);
  });
});
