import { expect } from "chai";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { http } from "../helpers/http.js";
import { runCliToEnd, startGateway, startNode } from "../helpers/processes.js";
import { tempDir } from "../helpers/tempDir.js";

/** A free loopback port (the restarted node must come back on the same address). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("e2e: the gateway when its node goes away and comes back", function () {
  this.timeout(90_000);

  // With answer reuse its height watch holds the node's websocket (the queries go over it); without, the gateway holds one itself.
  for (const answerCacheMb of [32, 0]) {
    it(`answers 503 naming the node while it is down, and recovers by itself when it returns (api.answer-cache-mb = ${answerCacheMb})`, async () => {
      const home = path.join(tempDir(), "home");
      expect((await runCliToEnd(["init", "--home", home])).code).to.equal(0);
      const laddr = `tcp://127.0.0.1:${await freePort()}`;
      let node = await startNode(home, ["--rpc.laddr", laddr]);
      const gatewayHome = path.join(tempDir(), "gateway-home");
      fs.mkdirSync(path.join(gatewayHome, "config"), { recursive: true });
      fs.writeFileSync(path.join(gatewayHome, "config", "app.toml"), `[api]\nanswer-cache-mb = ${answerCacheMb}\n`);
      const gateway = await startGateway(gatewayHome, node.rpcUrl);
      try {
        expect((await http(`${gateway.restUrl}/core/bank/v1beta1/params`)).status).to.equal(200);

        expect(await node.proc.stop()).to.equal(0);
        const down = await http(`${gateway.restUrl}/core/bank/v1beta1/params`);
        expect(down.status).to.equal(503);
        expect(down.body.code).to.equal(14);
        expect(down.body.message).to.include(`node ${node.rpcUrl} is unavailable`);
        // found down at once (connection refused), not after waiting out rpc-read-timeout
        expect(down.body.message).to.not.include("no answer within");

        node = await startNode(home, ["--rpc.laddr", laddr]);
        const back = await http(`${gateway.restUrl}/core/bank/v1beta1/params`);
        expect(back.status).to.equal(200);
        expect(back.body.params.default_send_enabled).to.equal(true);
      } finally {
        await gateway.proc.stop();
        await node.proc.stop();
      }
    });
  }
});
