import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { http } from "../helpers/http.js";
import { runCliToEnd, startNode } from "../helpers/processes.js";
import { tempDir } from "../helpers/tempDir.js";

describe("e2e: start on a home started before", function () {
  this.timeout(120_000);

  it("starts from its store, answers the RPC's genesis from the file, prints the first accounts, and refuses a changed genesis.json", async () => {
    const home = path.join(tempDir(), "home");
    expect((await runCliToEnd(["init", "--home", home, "--accounts", "12"])).code).to.equal(0);
    const genesisFile = path.join(home, "config", "genesis.json");
    const doc = JSON.parse(fs.readFileSync(genesisFile, "utf8")) as unknown;
    const first = await startNode(home);
    await first.proc.stop();

    const second = await startNode(home);
    try {
      const output = second.proc.output();
      expect([...output.matchAll(/m\/44'\/118'\/0'\/0\/(\d+)\s+hub1\w+/g)].map((m) => m[1])).to.deep.equal(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
      expect(output).to.include("... and more in config/dev-accounts.json");
      const genesis = await http(second.rpcUrl, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "genesis", params: {} }) });
      expect(genesis.body).to.deep.equal({ jsonrpc: "2.0", id: 1, result: { genesis: doc } });
      expect((await http(`${second.restUrl}/core/bank/v1beta1/params`)).status).to.equal(200);
    } finally {
      await second.proc.stop();
    }

    fs.writeFileSync(genesisFile, JSON.stringify(doc)); // the same document, other bytes
    const refused = await runCliToEnd(["start", "--home", home]);
    expect(refused.code).to.equal(1);
    expect(refused.output).to.include(`${genesisFile} is not the genesis the store under data/ was started from (chain devnet-1)`);
  });
});
