import { expect } from "chai";
import path from "node:path";
import { http } from "./http.js";
import { runCliToEnd, startGateway, startNode, type RunningProcess, type StartedNode } from "./processes.js";
import { tempDir } from "./tempDir.js";
import { TEST_MNEMONIC } from "./devNode.js";

/** A development chain inited and started with `--names cosmos`, and a `gateway --names cosmos` in front of it. */
export interface CosmosProfileChain {
  node: StartedNode;
  gateway: { proc: RunningProcess; restUrl: string };
  /** GET on the node's REST server and on the gateway: both answer 200 with the same body, which is returned. */
  rest(route: string): Promise<any>;
  stop(): Promise<void>;
}

export async function startCosmosProfileChain(accounts = 6): Promise<CosmosProfileChain> {
  const home = path.join(tempDir(), "home");
  const init = await runCliToEnd(["init", "--home", home, "--names", "cosmos", "--accounts", String(accounts), "--mnemonic", TEST_MNEMONIC]);
  expect(init.code, init.output).to.equal(0);
  const node = await startNode(home);
  const gateway = await startGateway(path.join(tempDir(), "gateway-home"), node.rpcUrl, ["--names", "cosmos"]);
  return {
    node,
    gateway,
    async rest(route) {
      const [direct, through] = await Promise.all([http(`${node.restUrl}${route}`), http(`${gateway.restUrl}${route}`)]);
      expect(direct.status, `${route}: ${JSON.stringify(direct.body)}`).to.equal(200);
      expect(through.body, `${route} through the gateway`).to.deep.equal(direct.body);
      return direct.body;
    },
    async stop() {
      await gateway.proc.stop();
      await node.proc.stop();
    },
  };
}
