import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { http } from "../helpers/http.js";
import { runCliToEnd, startNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";

describe("e2e: the chain-rest command", function () {
  this.timeout(120_000);
  const root = tempDir();
  let n = 0;
  const newHome = () => path.join(root, `home-${n++}`);

  it("start on an empty home initialises a chain, prints the funded accounts, and serves their balances", async () => {
    const home = newHome();
    const node = await startNode(home);
    try {
      const output = node.proc.output();
      expect(output).to.include(`initializing a new development chain in ${home}`);
      expect(output).to.match(/funded accounts \(mnemonic: (\w+ ){23}\w+\)/);
      const printed = [...output.matchAll(/m\/44'\/118'\/0'\/0\/\d+\s+(hub1\w+)/g)].map((m) => m[1]!);
      expect(printed).to.have.length(10);
      const r = await http(`${node.restUrl}/core/bank/v1beta1/balances/${printed[9]}`);
      expect(r.status).to.equal(200);
      expect(r.body.balances).to.deep.equal([{ denom: "uhub", amount: "1000000000000" }]);
    } finally {
      await node.proc.stop();
    }
  });

  it("SIGTERM stops cleanly, and a restart on the same home resumes at its height with the same state", async () => {
    const home = newHome();
    expect((await runCliToEnd(["init", "--home", home, "--accounts", "4"])).code).to.equal(0);
    const configToml = path.join(home, "config", "config.toml");
    fs.writeFileSync(
      configToml,
      fs.readFileSync(configToml, "utf8").replace("create_empty_blocks = false", "create_empty_blocks = true").replace('"1s"', '"100ms"'),
    );
    const first = await startNode(home);
    let height = 0;
    while (height < 4) {
      height = Number((await http(`${first.restUrl}/core/bank/v1beta1/supply`)).headers.get("grpc-metadata-x-cosmos-block-height"));
    }
    const supply = (await http(`${first.restUrl}/core/bank/v1beta1/supply`)).body;
    expect(await first.proc.stop("SIGTERM")).to.equal(0);
    expect(first.proc.output()).to.include("stopped");

    fs.writeFileSync(configToml, fs.readFileSync(configToml, "utf8").replace("create_empty_blocks = true", "create_empty_blocks = false"));
    const second = await startNode(home);
    try {
      expect(second.proc.output()).not.to.include("initializing");
      const printedHeight = Number(second.proc.output().match(/at height (\d+)/)![1]);
      expect(printedHeight).to.be.at.least(height);
      const again = await http(`${second.restUrl}/core/bank/v1beta1/supply`);
      expect(again.body).to.deep.equal(supply);
      expect(Number(again.headers.get("grpc-metadata-x-cosmos-block-height"))).to.equal(printedHeight);
      // an older height that is still kept
      expect((await http(`${second.restUrl}/core/bank/v1beta1/supply`, { headers: { "x-cosmos-block-height": "2" } })).status).to.equal(200);
    } finally {
      await second.proc.stop();
    }
  });

  it("stops with file, key and expected value on a bad setting", async () => {
    const home = newHome();
    initDevHome(home); // the subject is start: the home is made in this process
    const appToml = path.join(home, "config", "app.toml");
    fs.writeFileSync(appToml, fs.readFileSync(appToml, "utf8").replace("max-open-connections = 1000", 'max-open-connections = "many"'));
    const result = await runCliToEnd(["start", "--home", home]);
    expect(result.code).to.equal(1);
    expect(result.output).to.include(`chain-rest: ${appToml}: key "api.max-open-connections" must be an integer >= 0 (0 = no limit) (got "many")`);
  });

  it("refuses a malformed genesis, naming module and field, and leaves no store behind", async () => {
    const home = newHome();
    initDevHome(home, { accounts: 4 }); // the subject is start: the home is made in this process
    const genesisFile = path.join(home, "config", "genesis.json");
    const genesis = JSON.parse(fs.readFileSync(genesisFile, "utf8"));
    genesis.app_state.bank.balances[1].coins[0].amount = "12x";
    fs.writeFileSync(genesisFile, JSON.stringify(genesis));
    const result = await runCliToEnd(["start", "--home", home]);
    expect(result.code).to.equal(1);
    expect(result.output).to.include(`${genesisFile}: app_state.bank.balances[1].coins[0].amount: "12x" is not an integer`);
    expect(fs.existsSync(path.join(home, "data"))).to.equal(false);
  });

  it("with api.enable = false runs the node and its RPC without the REST server", async () => {
    const home = newHome();
    initDevHome(home); // the subject is start: the home is made in this process
    const appToml = path.join(home, "config", "app.toml");
    fs.writeFileSync(appToml, fs.readFileSync(appToml, "utf8").replace("enable = true", "enable = false"));
    const node = await startNode(home);
    try {
      expect(node.proc.output()).to.include("REST server: disabled (api.enable = false)");
      const health = await http(node.rpcUrl, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "health", params: {} }) });
      expect(health.body).to.deep.equal({ jsonrpc: "2.0", id: 1, result: {} });
    } finally {
      await node.proc.stop();
    }
  });

  it("init refuses an initialized home, and --help explains each command", async () => {
    const home = newHome();
    expect((await runCliToEnd(["init", "--home", home])).code).to.equal(0);
    const again = await runCliToEnd(["init", "--home", home]);
    expect(again.code).to.equal(1);
    expect(again.output).to.include("is already initialized");
    const commands = ["init", "start", "gateway", "routes"];
    const helps = await Promise.all(commands.map((command) => runCliToEnd([command, "--help"])));
    commands.forEach((command, i) => {
      expect(helps[i]!.code).to.equal(0);
      expect(helps[i]!.output).to.include(`Usage: chain-rest ${command}`);
    });
  });

  it("routes prints the compiled route table", async () => {
    const result = await runCliToEnd(["routes"]);
    expect(result.code).to.equal(0);
    expect(result.output).to.match(/GET\s+\/core\/bank\/v1beta1\/balances\/\{address\}\s+core\.bank\.v1beta1\.Query\/AllBalances/);
  });
});
