import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { initHome } from "../../src/commands/init.js";
import { SERVER_NODE_FLAGS } from "../../src/util/nodeFlags.js";
import { PACKAGE_ROOT } from "../../src/util/paths.js";
import { addGenesisAccounts } from "../helpers/largeGenesis.js";
import { runNode } from "../helpers/processes.js";
import { tempDir } from "../helpers/tempDir.js";

/** The files `chain-rest start` reads from its package, copied (node_modules linked) so that one table can be broken. */
const PACKAGE_FILES = ["bin", "dist", "proto", "routes.yaml", "legacy-routes.yaml", "amino-transforms.yaml", "names.yaml", "package.json"];

describe("start: a mistake in the route tables fails before the genesis import", function () {
  this.timeout(120_000);

  it("names the table's mistake and leaves the home's store unwritten", async () => {
    const copy = tempDir("chain-rest-package-");
    for (const file of PACKAGE_FILES) fs.cpSync(path.join(PACKAGE_ROOT, file), path.join(copy, file), { recursive: true });
    fs.symlinkSync(path.join(PACKAGE_ROOT, "node_modules"), path.join(copy, "node_modules"));
    const routes = fs.readFileSync(path.join(copy, "routes.yaml"), "utf8");
    const broken = routes.replace("method: core.auth.v1beta1.Query/Params", "method: core.auth.v1beta1.Query/NoSuchMethod");
    expect(broken).to.not.equal(routes);
    fs.writeFileSync(path.join(copy, "routes.yaml"), broken);

    const home = path.join(tempDir(), "home");
    initHome({ home, chainId: "devnet-1", accounts: 4, denom: "uhub" });
    addGenesisAccounts(home, 20_000); // an import that would print its progress
    const started = runNode([
      ...SERVER_NODE_FLAGS,
      path.join(copy, "bin", "chain-rest.js"),
      "start",
      "--home",
      home,
      "--api.address",
      "tcp://127.0.0.1:0",
      "--rpc.laddr",
      "tcp://127.0.0.1:0",
    ]);
    const code = await started.exited;
    const output = started.output();
    expect(code, output).to.not.equal(0);
    expect(output).to.include("routes.yaml").and.to.include("NoSuchMethod");
    expect(output, "no genesis import began").to.not.match(/genesis|import/i);
    expect(fs.existsSync(path.join(home, "data", "state.db")), "the store was never opened").to.equal(false);
  });
});
