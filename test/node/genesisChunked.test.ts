import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { Codec } from "../../src/codec/codec.js";
import { readGenesis } from "../../src/node/genesis.js";
import { DECODE_STEP } from "../../src/node/genesisDecode.js";
import { scanGenesis } from "../../src/node/genesisScan.js";
import { NODE_MODULES } from "../../src/node/modules/index.js";
import { chunkedGenesisHome, errorOf } from "../helpers/largeGenesis.js";

const codec = new Codec();

describe("genesis import of long lists a chunk at a time", () => {
  const read = (file: string) => readGenesis(file, NODE_MODULES, codec, { bech32Prefix: "hub" });

  it("decodes the same states as the document parsed whole", async () => {
    const file = path.join(chunkedGenesisHome(), "config", "genesis.json");
    const chunked = await read(file);
    const whole = JSON.parse(fs.readFileSync(file, "utf8")) as { app_state: Record<string, unknown> };
    for (const module of NODE_MODULES) {
      expect(chunked.states.get(module.name), module.name).to.deep.equal(
        codec.parser.parse(codec.type(module.genesisType), whole.app_state[module.name] ?? {}),
      );
    }
    const accounts = (whole.app_state.auth as { accounts: unknown[] }).accounts.length;
    const balances = (whole.app_state.bank as { balances: unknown[] }).balances.length;
    expect((chunked.states.get("auth")!.accounts as unknown[]).length).to.equal(accounts);
    // the lists were cut: auth's accounts and bank's balances, in chunks of DECODE_STEP
    const lists = scanGenesis(fs.readFileSync(file), DECODE_STEP, 1 << 20)!.lists;
    expect(lists.map((l) => `${l.module}.${l.field} ${l.entries} ${l.chunks.length}`)).to.deep.equal([
      `auth.accounts ${accounts} 2`,
      `bank.balances ${balances} 2`,
    ]);
  });

  it("reports a malformed entry deep in a long list as JSON.parse of the whole file does", async () => {
    const file = path.join(chunkedGenesisHome(), "config", "genesis.json");
    const text = fs.readFileSync(file, "utf8");
    const at = text.indexOf('"sequence":"0"', text.length / 3);
    const broken = `${text.slice(0, at)}"sequence":"0",,${text.slice(at + '"sequence":"0"'.length)}`;
    fs.writeFileSync(file, broken);
    let expected = "";
    try {
      JSON.parse(broken);
    } catch (err) {
      expected = (err as Error).message;
    }
    expect(expected).to.not.equal("");
    expect(await errorOf(() => read(file))).to.equal(`${file}: ${expected}`);
  });

  it("names the field of an invalid entry deep in a long list", async () => {
    const file = path.join(chunkedGenesisHome(), "config", "genesis.json");
    const doc = JSON.parse(fs.readFileSync(file, "utf8")) as { app_state: { bank: { balances: Array<{ coins: Array<{ amount: string }> }> } } };
    doc.app_state.bank.balances[11_000]!.coins[0]!.amount = "12x";
    fs.writeFileSync(file, JSON.stringify(doc));
    expect(await errorOf(() => read(file))).to.equal(`${file}: app_state.bank.balances[11000].coins[0].amount: "12x" is not an integer`);
  });

  it("checks auth and bank in steps with the same errors as validateGenesis at once: a duplicate deep in a list, the supply", async () => {
    const file = path.join(chunkedGenesisHome(), "config", "genesis.json");
    const doc = JSON.parse(fs.readFileSync(file, "utf8")) as {
      app_state: { auth: { accounts: Array<{ address: string }> }; bank: { balances: Array<{ address: string }>; supply: unknown[] } };
    };
    const accounts = doc.app_state.auth.accounts;
    const twin = accounts[11_500]!.address;
    const original = accounts[11_501]!.address;
    accounts[11_501]!.address = twin;
    fs.writeFileSync(file, JSON.stringify(doc));
    const ctx = { chain: { chainId: "devnet-1", bech32Prefix: "hub" }, codec };
    const atOnce = (module: (typeof NODE_MODULES)[number], json: unknown) =>
      errorOf(async () => module.validateGenesis(codec.parser.parse(codec.type(module.genesisType), json), ctx));
    const auth = NODE_MODULES.find((m) => m.name === "auth")!;
    const expected = `accounts[11501].address: duplicate account ${twin}`;
    expect(await atOnce(auth, doc.app_state.auth)).to.equal(expected);
    expect(await errorOf(() => read(file))).to.equal(`${file}: app_state.auth.${expected}`);

    accounts[11_501]!.address = original;
    doc.app_state.bank.supply = [{ denom: "uhub", amount: "1" }];
    fs.writeFileSync(file, JSON.stringify(doc));
    const bank = NODE_MODULES.find((m) => m.name === "bank")!;
    const supplyError = await atOnce(bank, doc.app_state.bank);
    expect(supplyError).to.match(/^supply: genesis supply is incorrect, expected .+, got 1uhub$/);
    expect(await errorOf(() => read(file))).to.equal(`${file}: app_state.bank.${supplyError}`);
  });
});
