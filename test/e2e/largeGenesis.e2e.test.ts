import { expect } from "chai";
import path from "node:path";
import { http } from "../helpers/http.js";
import { startNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { addGenesisAccounts } from "../helpers/largeGenesis.js";
import { setApiSettings } from "../helpers/appToml.js";

const EXTRA = 100_000;

/** A genesis of 100,000 accounts loads, and pages of it are answered (the time is measured in bench/, not here). */
describe("e2e: a genesis with 100,000 accounts", function () {
  this.timeout(240_000);

  it("loads, and answers a page of 100 accounts by key and deep by offset", async () => {
    const home = path.join(tempDir(), "home");
    initDevHome(home);
    addGenesisAccounts(home, EXTRA);
    // a deep offset page with its total: past the default caps (api.max-page-offset, api.max-count-total), raised here
    setApiSettings(home, { "max-page-offset": 1_000_000, "max-count-total": 1_000_000 });
    const node = await startNode(home, [], 200_000); // the import of 100,000 accounts: well within the test's timeout, on a loaded machine too
    try {
      const first = await http(`${node.restUrl}/core/auth/v1beta1/accounts?pagination.limit=100`);
      expect(first.status).to.equal(200);
      expect(first.body.accounts).to.have.length(100);
      expect(first.body.pagination.next_key).to.be.a("string");
      const second = await http(
        `${node.restUrl}/core/auth/v1beta1/accounts?pagination.limit=100&pagination.key=${encodeURIComponent(first.body.pagination.next_key)}`,
      );
      expect(second.body.accounts).to.have.length(100);
      const firstAddresses = new Set(first.body.accounts.map((a: { address?: string }) => a.address));
      expect(second.body.accounts.some((a: { address?: string }) => firstAddresses.has(a.address))).to.equal(false);
      const deep = await http(`${node.restUrl}/core/auth/v1beta1/accounts?pagination.offset=99900&pagination.limit=100&pagination.count_total=true`);
      expect(deep.body.accounts).to.have.length(100);
      expect(Number(deep.body.pagination.total)).to.be.at.least(EXTRA);
    } finally {
      await node.proc.stop();
    }
  });
});
