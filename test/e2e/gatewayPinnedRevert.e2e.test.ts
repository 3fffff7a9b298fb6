import { expect } from "chai";
import path from "node:path";
import { setApiSettings } from "../helpers/appToml.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { http } from "../helpers/http.js";
import { startCosmosProfileChain, type CosmosProfileChain } from "../helpers/cosmosProfileChain.js";
import { startGateway, startNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";

const HEIGHT_HEADER = "x-cosmos-block-height";
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * A `gateway --node` in front of a dev chain learns from the node's `dev_chain_status` whether a
 * revert can change a height: pinned answers are `immutable` only while no snapshot was taken.
 */
describe("e2e: gateway --node, pinned answers and a node that can revert", function () {
  this.timeout(120_000);
  let chain: CosmosProfileChain;

  before(async () => {
    chain = await startCosmosProfileChain(4);
  });
  after(() => chain?.stop());

  const call = async (method: string, params: Record<string, unknown> = {}) => {
    const r = await http(chain.node.rpcUrl, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
    expect(r.body.error, r.text).to.equal(undefined);
    return r.body.result as Record<string, string | boolean>;
  };
  const pinned = async (height: string) => {
    const r = await http(`${chain.gateway.restUrl}/cosmos/bank/v1beta1/supply`, { headers: { [HEIGHT_HEADER]: height } });
    expect(r.status, r.text).to.equal(200);
    return r.headers.get("cache-control");
  };

  it("the node's dev_chain_status: the latest height and whether a snapshot was ever taken", async () => {
    const status = await call("dev_chain_status");
    expect(status).to.have.keys("latest_block_height", "snapshots_taken", "auto_blocks");
    expect(status.snapshots_taken).to.equal(false);
    expect(Number(status.latest_block_height)).to.be.greaterThan(0);
  });

  it("immutable before any snapshot; after one, no pinned answer is, at old heights or new", async () => {
    await call("advance_blocks", { num_blocks: "2" });
    const early = String((await call("dev_chain_status")).latest_block_height);
    expect(await pinned(early)).to.equal(IMMUTABLE);

    const taken = await call("snapshot");
    await call("advance_blocks", { num_blocks: "2" });
    const later = String((await call("dev_chain_status")).latest_block_height);
    expect(Number(later)).to.be.greaterThan(Number(taken.height));
    // a height above what the gateway last knew makes it ask again, and it learns of the snapshot
    expect(await pinned(later)).to.equal("no-cache");
    expect(await pinned(early)).to.equal("no-cache");
    // what the reason is: a revert writes the later height again
    const before = await http(`${chain.gateway.restUrl}/cosmos/base/tendermint/v1beta1/blocks/${later}`);
    expect(await call("revert", { snapshot_id: taken.snapshot_id })).to.deep.equal({ height: taken.height });
    await call("advance_blocks", { num_blocks: "2" });
    const after = await http(`${chain.gateway.restUrl}/cosmos/base/tendermint/v1beta1/blocks/${later}`);
    expect(before.status, before.text).to.equal(200);
    expect(after.status, after.text).to.equal(200);
    expect(after.body.block_id.hash).to.not.equal(before.body.block_id.hash);
  });
});

/** The same through a gateway with api.workers = 2: each worker asks the gateway's main process, which asks the node. */
describe("e2e: gateway --node with two workers, pinned answers and a node that can revert", function () {
  this.timeout(120_000);
  let stop: () => Promise<void>;
  let rpcUrl: string;
  let restUrl: string;

  before(async () => {
    const home = path.join(tempDir(), "home");
    initDevHome(home, { mnemonic: TEST_MNEMONIC });
    const node = await startNode(home);
    const gatewayHome = path.join(tempDir(), "gateway-home");
    initDevHome(gatewayHome);
    setApiSettings(gatewayHome, { workers: 2 });
    const gateway = await startGateway(gatewayHome, node.rpcUrl);
    ({ rpcUrl, restUrl } = { rpcUrl: node.rpcUrl, restUrl: gateway.restUrl });
    stop = async () => {
      await gateway.proc.stop();
      await node.proc.stop();
    };
  });
  after(() => stop?.());

  const call = async (method: string, params: Record<string, unknown> = {}) => {
    const r = await http(rpcUrl, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
    expect(r.body.error, r.text).to.equal(undefined);
    return r.body.result as Record<string, string | boolean>;
  };
  /** Asked four times on new connections, so that both workers answer (the shared socket hands connections round). */
  const pinnedControls = async (height: string) => {
    const controls = new Set<string | null>();
    for (let i = 0; i < 4; i++) {
      const r = await http(`${restUrl}/core/bank/v1beta1/supply`, { headers: { [HEIGHT_HEADER]: height, connection: "close" } });
      expect(r.status, r.text).to.equal(200);
      controls.add(r.headers.get("cache-control"));
    }
    return [...controls];
  };

  it("immutable before any snapshot, no-cache after one", async () => {
    const early = String((await call("dev_chain_status")).latest_block_height);
    expect(await pinnedControls(early)).to.deep.equal([IMMUTABLE]);
    await call("snapshot");
    await call("advance_blocks", { num_blocks: "1" });
    const later = String((await call("dev_chain_status")).latest_block_height);
    expect(await pinnedControls(later)).to.deep.equal(["no-cache"]);
    expect(await pinnedControls(early)).to.deep.equal(["no-cache"]);
  });
});
