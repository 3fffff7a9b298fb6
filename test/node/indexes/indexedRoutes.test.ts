import { expect } from "chai";
import { decodeBech32Address, encodeBech32Address } from "../../../src/codec/bech32.js";
import { startRestServer } from "../../../src/commands/restServer.js";
import type { EmbeddedNode } from "../../../src/node/embeddedNode.js";
import { InProcessClient } from "../../../src/node/inProcessClient.js";
import type { RunningServer } from "../../../src/util/runningServer.js";
import { openDevNode, TEST_MNEMONIC } from "../../helpers/devNode.js";
import { http } from "../../helpers/http.js";
import { testApiConfig } from "../../helpers/testApiConfig.js";
import { directTx, send, testSigner } from "../../helpers/txSigner.js";

type Owner = { address: string; balance: { denom: string; amount: string } };

/** denom_owners and address_by_id (v0.46 routes) over HTTP, answered from the derived indexes of a real dev node. */
describe("routes answered from the derived indexes", function () {
  this.timeout(60_000);
  let node: EmbeddedNode;
  let addresses: string[];
  let rest: RunningServer;
  const get = (route: string, height?: number) => http(rest.url + route, { headers: height ? { "x-cosmos-block-height": String(height) } : {} });
  const NEWCOMER = encodeBech32Address("hub", new Uint8Array(20).fill(7)); // an address no account has yet

  before(async () => {
    ({ node, addresses } = await openDevNode({ accounts: 6 }));
    rest = await startRestServer(testApiConfig({ swagger: false, "answer-cache-mb": 0 }), "hub", new InProcessClient(node), node.codec);
  });
  after(async () => {
    await rest.close();
    await node.close();
  });

  /** Every holder of a denom, from each account's balances (the full scan a client would otherwise make). */
  async function holdersByScan(denom: string, height?: number): Promise<Owner[]> {
    const accounts = (await get("/core/auth/v1beta1/accounts?pagination.limit=1000", height)).body.accounts as Array<{
      address?: string;
      base_account?: { address: string };
    }>;
    const owners: Owner[] = [];
    for (const account of accounts) {
      const address = account.address ?? account.base_account!.address;
      const r = await get(`/core/bank/v1beta1/balances/${address}/${denom}`, height);
      if (r.body.balance.amount !== "0") owners.push({ address, balance: r.body.balance });
    }
    // in the order of the address bytes, as the store keeps them (not the order of the bech32 texts)
    const bytes = (address: string) => Buffer.from(decodeBech32Address(address, "hub", "address")).toString("hex");
    return owners.sort((a, b) => (bytes(a.address) < bytes(b.address) ? -1 : 1));
  }

  async function walk(denom: string, limit: number, height?: number): Promise<Owner[]> {
    const owners: Owner[] = [];
    let key = "";
    for (let pages = 0; pages < 100; pages++) {
      const r = await get(`/core/bank/v1beta1/denom_owners/${denom}?pagination.limit=${limit}&pagination.key=${encodeURIComponent(key)}`, height);
      expect(r.status, r.text).to.equal(200);
      owners.push(...(r.body.denom_owners as Owner[]));
      key = r.body.pagination.next_key ?? "";
      if (!key) return owners;
    }
    throw new Error("more than 100 pages");
  }

  it("pages a denom's holders, with their balances, as the scan of every account finds them", async () => {
    const expected = await holdersByScan("uhub");
    expect(expected.length).to.be.at.least(6);
    expect(await walk("uhub", 2)).to.deep.equal(expected);
    const counted = await get("/core/bank/v1beta1/denom_owners/uhub?pagination.limit=1&pagination.count_total=true");
    expect(counted.body.pagination.total).to.equal(String(expected.length));
    expect((await get("/core/bank/v1beta1/denom_owners/nosuchdenom")).body).to.deep.equal({ denom_owners: [], pagination: { next_key: null, total: "0" } });
    expect((await get("/core/bank/v1beta1/denom_owners/1x")).status).to.equal(400);
  });

  it("follows each block, and answers an earlier height from that height's index", async () => {
    const before = node.height;
    const holdersBefore = await walk("uhub", 100);
    const signer = await testSigner(TEST_MNEMONIC, 0);
    const { hash, outcome } = await node.checkTx(await directTx(signer, { messages: [send(signer.address, NEWCOMER, "7")], sequence: 0, accountNumber: 0 }));
    expect(outcome.code, outcome.log).to.equal(0);
    await node.waitForInclusion(hash);
    const now = await walk("uhub", 3);
    expect(now).to.deep.equal(await holdersByScan("uhub"));
    expect(now.find((o) => o.address === NEWCOMER)?.balance.amount).to.equal("7");
    expect(await walk("uhub", 100, before)).to.deep.equal(holdersBefore);
    expect(holdersBefore.some((o) => o.address === NEWCOMER)).to.equal(false);
    // the newcomer's account has the next number, from this height on
    const accounts = (await get("/core/auth/v1beta1/accounts?pagination.limit=1000")).body.accounts as Array<{ address?: string; account_number?: string }>;
    const created = accounts.find((a) => a.address === NEWCOMER)!;
    const byId = await get(`/core/auth/v1beta1/address_by_id/${created.account_number}`);
    expect(byId.status, byId.text).to.equal(200);
    expect(byId.body).to.deep.equal({ account_address: NEWCOMER });
    expect((await get(`/core/auth/v1beta1/address_by_id/${created.account_number}`, before)).status).to.equal(404);
  });

  it("answers an account number's address, 404 for a number no account has", async () => {
    for (const [i, address] of addresses.entries())
      expect((await get(`/core/auth/v1beta1/address_by_id/${i}`)).body).to.deep.equal({ account_address: address });
    const missing = await get("/core/auth/v1beta1/address_by_id/100000");
    expect(missing.status).to.equal(404);
    expect(missing.body.message).to.include("account address not found with account number 100000");
  });
});
