import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { TEST_MNEMONIC } from "../../helpers/devNode.js";
import { http } from "../../helpers/http.js";
import { startGateway, startNode, type RunningProcess, type StartedNode } from "../../helpers/processes.js";
import { initDevHome } from "../../helpers/devHome.js";
import { tempDir } from "../../helpers/tempDir.js";
import { directTx, send, testSigner } from "../../helpers/txSigner.js";

const KEEP_RECENT = 2;

/**
 * The node service's routes (after v0.41: Config, Status) on a node that keeps
 * two heights: Status says the earliest height still answerable, a query
 * below it is refused as before, and a gateway in front of the node answers
 * the same (the node answers them as ABCI queries, as a real node does).
 */
describe("e2e: GET /core/base/node/v1beta1/config and /status", function () {
  this.timeout(90_000);
  const home = path.join(tempDir(), "home");
  let node: StartedNode;
  let gateway: { proc: RunningProcess; restUrl: string };

  before(async () => {
    initDevHome(home, { mnemonic: TEST_MNEMONIC });
    const appToml = path.join(home, "config", "app.toml");
    fs.writeFileSync(
      appToml,
      fs
        .readFileSync(appToml, "utf8")
        .replace(/^pruning-keep-recent = 100$/m, `pruning-keep-recent = ${KEEP_RECENT}`)
        .replace(/^minimum-gas-prices = ""$/m, 'minimum-gas-prices = "0.001uhub"'),
    );
    node = await startNode(home);
    gateway = await startGateway(path.join(tempDir(), "gateway"), node.rpcUrl);
    // four blocks, one transaction each
    const signer = await testSigner(TEST_MNEMONIC, 0);
    const account = (await http(`${node.restUrl}/core/auth/v1beta1/accounts/${signer.address}`)).body.account;
    for (let i = 0; i < 4; i++) {
      const tx = await directTx(signer, {
        messages: [send(signer.address, signer.address, "1")],
        sequence: Number(account.sequence) + i,
        accountNumber: Number(account.account_number),
      });
      const r = await http(`${node.restUrl}/core/tx/v1beta1/txs`, {
        method: "POST",
        body: JSON.stringify({ tx_bytes: Buffer.from(tx).toString("base64"), mode: "BROADCAST_MODE_BLOCK" }),
      });
      expect(r.body.tx_response?.code, r.text).to.equal(0);
    }
  });
  after(async () => {
    await gateway?.proc.stop();
    await node?.proc.stop();
  });

  it("Config answers the node's minimum gas price and pruning settings", async () => {
    const r = await http(`${node.restUrl}/core/base/node/v1beta1/config`);
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.deep.equal({ minimum_gas_price: "0.001uhub", pruning_keep_recent: String(KEEP_RECENT), pruning_interval: "1", halt_height: "0" });
  });

  it("Status answers the earliest answerable height, and a query below it is refused as before", async () => {
    const r = await http(`${node.restUrl}/core/base/node/v1beta1/status`);
    expect(r.status, r.text).to.equal(200);
    const rpcStatus = JSON.parse((await http(`${node.rpcUrl}/status`)).text).result.sync_info;
    const height = Number(r.body.height);
    expect(height).to.equal(Number(rpcStatus.latest_block_height));
    expect(height).to.equal(5); // genesis and four blocks
    expect(Number(r.body.earliest_store_height)).to.equal(height - KEEP_RECENT + 1);
    expect(r.body.timestamp).to.equal(rpcStatus.latest_block_time.replace(/(\.\d{3})\d*Z$/, "$1Z"));
    const header = JSON.parse((await http(`${node.rpcUrl}/block?height=${height}`)).text).result.block.header;
    expect(Buffer.from(r.body.validator_hash, "base64").toString("hex").toUpperCase()).to.equal(header.validators_hash);
    const next = Buffer.from(r.body.app_hash, "base64").toString("hex").toUpperCase();
    expect(next).to.match(/^[0-9A-F]{64}$/);

    const earliest = Number(r.body.earliest_store_height);
    const params = "/core/bank/v1beta1/params";
    expect((await http(`${node.restUrl}${params}`, { headers: { "x-cosmos-block-height": String(earliest) } })).status).to.equal(200);
    const below = await http(`${node.restUrl}${params}`, { headers: { "x-cosmos-block-height": String(earliest - 1) } });
    expect(below.status).to.equal(400);
    expect(below.body.code).to.equal(3);
  });

  it("Status at a height asked (x-cosmos-block-height) answers that height's block, as the real handler reads its query context", async () => {
    const earlier = 4; // kept: the earliest answerable height is 4 (above)
    const r = await http(`${node.restUrl}/core/base/node/v1beta1/status`, { headers: { "x-cosmos-block-height": String(earlier) } });
    expect(r.status, r.text).to.equal(200);
    expect(Number(r.body.height)).to.equal(earlier);
    const header = JSON.parse((await http(`${node.rpcUrl}/block?height=${earlier}`)).text).result.block.header;
    expect(r.body.timestamp).to.equal(header.time.replace(/(\.\d{3})\d*Z$/, "$1Z"));
    expect(Buffer.from(r.body.validator_hash, "base64").toString("hex").toUpperCase()).to.equal(header.validators_hash);
  });

  it("answers the same through `gateway --node` (ABCI queries of the node)", async () => {
    for (const route of ["/core/base/node/v1beta1/config", "/core/base/node/v1beta1/status"]) {
      const [own, remote] = await Promise.all([http(`${node.restUrl}${route}`), http(`${gateway.restUrl}${route}`)]);
      expect(remote.status, remote.text).to.equal(200);
      expect(remote.text).to.equal(own.text);
    }
  });
});
