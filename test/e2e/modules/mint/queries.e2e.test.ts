import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { readDevAccounts } from "../../../../src/commands/home.js";
import { useStartedDevChain } from "../../../helpers/startedDevChain.js";

/**
 * x/params, x/upgrade and the hub's mint and guardian modules over HTTP against
 * `chain-rest start`, with the development genesis plus two more guardian supers
 * (so that the supers list has several pages).
 */

describe("e2e: mint routes", function () {
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

  it("serves the mint params of the genesis; res is never filled", async () => {
    const r = await get("/hubmod/mint/params");
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ params: { mint_denom: "uhub", inflation: "0.040000000000000000" }, res: null });
  });
});
