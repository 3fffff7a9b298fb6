import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { bech32 } from "bech32";
import { readDevAccounts } from "../../../../src/commands/home.js";
import type { HttpAnswer } from "../../../helpers/http.js";
import { useStartedDevChain } from "../../../helpers/startedDevChain.js";

/** The guardian routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: guardian routes", function () {
  this.timeout(60_000);
  let accounts: string[];
  let genesis: { genesis_time: string; app_state: Record<string, any> };
  const { get } = useStartedDevChain({
    prepare: (home) => {
      accounts = readDevAccounts(home)!.accounts.map((a) => a.address);
      const genesisFile = path.join(home, "config", "genesis.json");
      genesis = JSON.parse(fs.readFileSync(genesisFile, "utf8"));
      genesis.app_state.guardian.supers.push(
        { description: "second", account_type: "ORDINARY", address: accounts[1], added_by: accounts[0] },
        { description: "third", account_type: "ORDINARY", address: accounts[2], added_by: accounts[0] },
      );
      fs.writeFileSync(genesisFile, JSON.stringify(genesis, null, 2));
    },
  });

  const supersInStoreOrder = () => {
    const all = [
      { description: "genesis", account_type: "GENESIS", address: accounts[0], added_by: accounts[0] },
      { description: "second", account_type: "ORDINARY", address: accounts[1], added_by: accounts[0] },
      { description: "third", account_type: "ORDINARY", address: accounts[2], added_by: accounts[0] },
    ];
    // the store key is 0x00 | address bytes
    const bytes = (address: string) => Buffer.from(bech32.fromWords(bech32.decode(address).words));
    return all.sort((a, b) => Buffer.compare(bytes(a.address!), bytes(b.address!)));
  };

  it("the development genesis makes account 0 the genesis super", () => {
    expect(genesis.app_state.guardian.supers[0]).to.deep.equal({
      description: "genesis",
      account_type: "GENESIS",
      address: accounts[0],
      added_by: accounts[0],
    });
  });

  it("lists all supers in store order with the pagination of a complete page", async () => {
    const r = await get("/hubmod/guardian/supers");
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ supers: supersInStoreOrder(), pagination: { next_key: null, total: "3" } });
  });

  it("walks the supers one per page with next_key", async () => {
    const seen: unknown[] = [];
    let key: string | null = null;
    let pages = 0;
    do {
      const r: HttpAnswer = await get(`/hubmod/guardian/supers?pagination.limit=1${key ? `&pagination.key=${encodeURIComponent(key)}` : ""}`);
      expect(r.status).to.equal(200);
      expect(r.body.supers).to.have.length(1);
      expect(r.body.pagination.total).to.equal("0");
      seen.push(r.body.supers[0]);
      key = r.body.pagination.next_key;
      pages++;
    } while (key);
    expect(pages).to.equal(3);
    expect(seen).to.deep.equal(supersInStoreOrder());
  });

  it("pages with offset and count_total", async () => {
    const r = await get("/hubmod/guardian/supers?pagination.offset=1&pagination.limit=1&pagination.count_total=true");
    expect(r.body.supers).to.deep.equal([supersInStoreOrder()[1]]);
    expect(r.body.pagination.total).to.equal("3");
    expect(r.body.pagination.next_key).to.be.a("string");
    const last = await get("/hubmod/guardian/supers?pagination.offset=2&pagination.limit=5");
    expect(last.body.supers).to.deep.equal([supersInStoreOrder()[2]]);
    expect(last.body.pagination.next_key).to.equal(null);
  });
});
