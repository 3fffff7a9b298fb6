import { expect } from "chai";
import path from "node:path";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { http } from "../helpers/http.js";
import { startGateway, startNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";

describe("e2e: chain-rest gateway --node reuses answers only for the node's latest height", function () {
  this.timeout(60_000);

  it("shows the block of a transaction it broadcast at once, though the same query was answered from memory before", async () => {
    const home = path.join(tempDir(), "home");
    initDevHome(home, { mnemonic: TEST_MNEMONIC });
    const node = await startNode(home);
    const gateway = await startGateway(path.join(tempDir(), "gateway-home"), node.rpcUrl);
    try {
      const [a, b] = await Promise.all([testSigner(TEST_MNEMONIC, 0), testSigner(TEST_MNEMONIC, 1)]);
      const route = `${gateway.restUrl}/core/bank/v1beta1/balances/${b.address}/uhub`;
      const before = await http(route);
      expect(before.status, before.text).to.equal(200);
      for (let i = 0; i < 2; i++) expect((await http(route)).text).to.equal(before.text); // kept when asked again, then reused

      const tx = await directTx(a, { messages: [send(a.address, b.address, "555")], sequence: 0, accountNumber: 0 });
      const broadcast = await http(`${gateway.restUrl}/core/tx/v1beta1/txs`, {
        method: "POST",
        body: JSON.stringify({ tx_bytes: Buffer.from(tx).toString("base64"), mode: "BROADCAST_MODE_BLOCK" }),
      });
      expect(broadcast.body.tx_response.code, broadcast.text).to.equal(0);

      const after = await http(route);
      expect(BigInt(after.body.balance.amount)).to.equal(BigInt(before.body.balance.amount) + 555n);
      expect(after.headers.get("grpc-metadata-x-cosmos-block-height")).to.equal(broadcast.body.tx_response.height);
    } finally {
      await gateway.proc.stop();
      await node.proc.stop();
    }
  });
});
