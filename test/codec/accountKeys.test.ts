import { expect } from "chai";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { Secp256k1HdWallet, makeCosmoshubPath } from "@cosmjs/amino";
import { deriveAccounts, hdPath } from "../../src/codec/keys.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";

describe("development accounts: one parent key, its children", () => {
  it("derives the keys of the whole path from the master, for each index", function () {
    this.timeout(120_000); // each mnemonic → seed is 2,048 rounds of PBKDF2 in JavaScript
    const master = HDKey.fromMasterSeed(mnemonicToSeedSync(TEST_MNEMONIC));
    const accounts = [...deriveAccounts(TEST_MNEMONIC, "hub", 3), ...deriveAccounts(TEST_MNEMONIC, "hub", 2, 2 ** 31 - 2)];
    expect(accounts.map((a) => a.index)).to.deep.equal([0, 1, 2, 2 ** 31 - 2, 2 ** 31 - 1]);
    for (const account of accounts) {
      const index = account.index;
      const expected = master.derive(hdPath(index));
      expect(Buffer.from(account.privateKey).toString("hex"), `private key ${index}`).to.equal(Buffer.from(expected.privateKey!).toString("hex"));
      expect(Buffer.from(account.publicKey).toString("hex"), `public key ${index}`).to.equal(Buffer.from(expected.publicKey!).toString("hex"));
    }
  });

  it("gives the addresses a third-party wallet (cosmjs) derives from the mnemonic", async function () {
    this.timeout(120_000);
    const wallet = await Secp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: [0, 1, 2, 9].map((i) => makeCosmoshubPath(i)) });
    const expected = (await wallet.getAccounts()).map((a) => a.address);
    const accounts = deriveAccounts(TEST_MNEMONIC, "hub", 10);
    expect([0, 1, 2, 9].map((i) => accounts[i]!.address)).to.deep.equal(expected);
    expect(accounts.map((a) => a.index)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
