import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { http } from "../helpers/http.js";
import { startGateway, startNode, type RunningProcess } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { freePort } from "../helpers/freePort.js";

describe("e2e: the gateway when its node goes away and comes back", function () {
  this.timeout(90_000);

  // With answer reuse its height watch holds the node's websocket (the queries go over it); without, the gateway holds one itself.
  // One gateway of each kind in front of the same node live through the same outage.
  it("answers 503 naming the node while it is down, and recovers by itself when it returns (api.answer-cache-mb = 32, and 0)", async () => {
    const home = path.join(tempDir(), "home");
    initDevHome(home);
    const laddr = `tcp://127.0.0.1:${await freePort()}`;
    let node = await startNode(home, ["--rpc.laddr", laddr]);
    const gateways: Array<{ proc: RunningProcess; restUrl: string; cache: string }> = [];
    try {
      await Promise.all(
        [32, 0].map(async (answerCacheMb) => {
          const gatewayHome = path.join(tempDir(), "gateway-home");
          fs.mkdirSync(path.join(gatewayHome, "config"), { recursive: true });
          fs.writeFileSync(path.join(gatewayHome, "config", "app.toml"), `[api]\nanswer-cache-mb = ${answerCacheMb}\n`);
          gateways.push({ ...(await startGateway(gatewayHome, node.rpcUrl)), cache: `answer-cache-mb = ${answerCacheMb}` });
        }),
      );
      for (const gateway of gateways) expect((await http(`${gateway.restUrl}/core/bank/v1beta1/params`)).status, gateway.cache).to.equal(200);

      expect(await node.proc.stop()).to.equal(0);
      for (const gateway of gateways) {
        const down = await http(`${gateway.restUrl}/core/bank/v1beta1/params`);
        expect(down.status, gateway.cache).to.equal(503);
        expect(down.body.code, gateway.cache).to.equal(14);
        expect(down.body.message, gateway.cache).to.include(`node ${node.rpcUrl} is unavailable`);
        // found down at once (connection refused), not after waiting out rpc-read-timeout
        expect(down.body.message, gateway.cache).to.not.include("no answer within");
      }

      node = await startNode(home, ["--rpc.laddr", laddr]);
      for (const gateway of gateways) {
        const back = await http(`${gateway.restUrl}/core/bank/v1beta1/params`);
        expect(back.status, gateway.cache).to.equal(200);
        expect(back.body.params.default_send_enabled, gateway.cache).to.equal(true);
      }
    } finally {
      await Promise.all(gateways.map((gateway) => gateway.proc.stop()));
      await node.proc.stop();
    }
  });
});
