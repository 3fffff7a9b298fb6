import { expect } from "chai";
import path from "node:path";
import { ClassicLevel } from "classic-level";
import { runCliToEnd, startNode, type StartedNode } from "../helpers/processes.js";
import { tempDir } from "../helpers/tempDir.js";
import { http } from "../helpers/http.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";

const BUILT = /the derived indexes of height (\d+) are built/;

/**
 * Takes every derived-index entry out of a stopped home's LevelDB (the state
 * keys 's' and the fast index 'f' of the reserved "~index/" store), which is
 * what a home made before the indexes holds.
 */
async function stripIndexes(home: string): Promise<number> {
  const db = new ClassicLevel<Uint8Array, Uint8Array>(path.join(home, "data", "state.db"), { keyEncoding: "view", valueEncoding: "view" });
  await db.open();
  let removed = 0;
  try {
    for (const first of ["s", "f"]) {
      const prefix = Buffer.from(`${first}~index/`);
      const end = Buffer.from(prefix);
      end[end.length - 1]! += 1;
      const keys: Uint8Array[] = [];
      for await (const key of db.keys({ gte: prefix, lt: end })) keys.push(key);
      await db.batch(keys.map((key) => ({ type: "del" as const, key })));
      removed += keys.length;
    }
  } finally {
    await db.close();
  }
  return removed;
}

const advanceBlock = (node: StartedNode) =>
  http(node.rpcUrl, {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "advance_blocks", params: { num_blocks: "1" } }),
    headers: { "content-type": "application/json" },
  });

/** The holders of a denom by scanning every account's balance (what the index must equal). */
async function scannedHolders(node: StartedNode, denom: string): Promise<Array<{ address: string; balance: { denom: string; amount: string } }>> {
  const accounts = (await http(`${node.restUrl}/core/auth/v1beta1/accounts?pagination.limit=1000`)).body.accounts as Array<{
    address?: string;
    base_account?: { address: string };
  }>;
  const holders = [];
  for (const account of accounts) {
    const address = account.address ?? account.base_account?.address;
    if (!address) continue;
    const balance = (await http(`${node.restUrl}/core/bank/v1beta1/balances/${address}/${denom}`)).body.balance;
    if (balance.amount !== "0") holders.push({ address, balance });
  }
  return byAddress(holders);
}

/** Holders compared as sets (the index lists them in address-byte order, not bech32 text order). */
const byAddress = <T extends { address: string }>(list: T[]) => [...list].sort((a, b) => (a.address < b.address ? -1 : 1));

/** A home whose chain was made before the derived indexes gets them at its next start, written with its next block. */
describe("derived indexes rebuilt at start for a home without them", function () {
  this.timeout(180_000);

  it("builds them from the latest state, survives a kill before they are written, and then answers as the scan", async () => {
    const home = path.join(tempDir(), "home");
    const init = await runCliToEnd(["init", "--home", home, "--accounts", "6", "--mnemonic", TEST_MNEMONIC]);
    expect(init.code, init.output).to.equal(0);
    let node = await startNode(home);
    expect((await advanceBlock(node)).status).to.equal(200);
    const owners = (await http(`${node.restUrl}/core/bank/v1beta1/denom_owners/uhub`)).body;
    expect(owners.denom_owners.length).to.be.at.least(6);
    await node.proc.stop();

    expect(await stripIndexes(home)).to.be.greaterThan(0);

    // a real kill after the rebuild is made and before any block writes it
    node = await startNode(home);
    expect(node.proc.output()).to.match(BUILT);
    const missing = await http(`${node.restUrl}/core/bank/v1beta1/denom_owners/uhub`);
    expect(missing.status, missing.text).to.equal(501);
    await node.proc.stop("SIGKILL");

    node = await startNode(home);
    try {
      const height = Number(BUILT.exec(node.proc.output())![1]);
      expect(node.proc.output(), "the start after the kill builds them again").to.match(BUILT);
      expect((await http(`${node.restUrl}/core/bank/v1beta1/denom_owners/uhub`)).status).to.equal(501);
      expect((await advanceBlock(node)).status).to.equal(200);
      const rebuilt = await http(`${node.restUrl}/core/bank/v1beta1/denom_owners/uhub?pagination.limit=1000`);
      expect(rebuilt.status, rebuilt.text).to.equal(200);
      expect(byAddress(rebuilt.body.denom_owners)).to.deep.equal(await scannedHolders(node, "uhub"));
      // holders by amount were rebuilt too: the same holders, largest first
      const top = await http(`${node.restUrl}/core/bank/v1beta1/top_holders/uhub?pagination.limit=1000`);
      expect(top.status, top.text).to.equal(200);
      expect(byAddress(top.body.denom_owners)).to.deep.equal(byAddress(rebuilt.body.denom_owners));
      const amounts = (top.body.denom_owners as Array<{ balance: { amount: string } }>).map((o) => BigInt(o.balance.amount));
      expect(amounts.every((amount, i) => i === 0 || amount <= amounts[i - 1]!)).to.equal(true);
      // the heights before the rebuilt one keep answering without them
      const before = await http(`${node.restUrl}/core/bank/v1beta1/denom_owners/uhub`, { headers: { "x-cosmos-block-height": String(height) } });
      expect(before.status, before.text).to.equal(501);
      const account = (await http(`${node.restUrl}/core/auth/v1beta1/accounts?pagination.limit=1`)).body.accounts[0];
      const byId = await http(`${node.restUrl}/core/auth/v1beta1/address_by_id/${account.account_number}`);
      expect(byId.status, byId.text).to.equal(200);
      expect(byId.body.account_address).to.equal(account.address);
    } finally {
      await node.proc.stop();
    }
    // complete now: the next start builds nothing
    node = await startNode(home);
    try {
      expect(node.proc.output()).not.to.match(BUILT);
      expect((await http(`${node.restUrl}/core/bank/v1beta1/denom_owners/uhub`)).status).to.equal(200);
    } finally {
      await node.proc.stop();
    }
  });
});
