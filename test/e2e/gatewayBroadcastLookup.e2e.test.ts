import { expect } from "chai";
import { createHash } from "node:crypto";
import fs from "node:fs";
import nodeHttp from "node:http";
import type net from "node:net";
import path from "node:path";
import { initDevHome } from "../helpers/devHome.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { http } from "../helpers/http.js";
import { startGateway, startNode, type StartedNode } from "../helpers/processes.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";

type Drop = "none" | "before-node" | "after-node" | "down";

/**
 * A real node behind a loopback relay that can lose a broadcast's connection:
 * before the node sees the transaction, or after the node answered it (the
 * node has it, the gateway never hears back): a node that dies mid-call;
 * or, `down`, every request lost before the node sees it.
 */
async function droppingRelay(target: string): Promise<{ url: string; drop: (mode: Drop) => void; close: () => Promise<void> }> {
  let mode: Drop = "none";
  const sockets = new Set<net.Socket>();
  const server = nodeHttp.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const isBroadcast = /"method":"broadcast_tx_/.test(body.toString());
      if ((isBroadcast && mode === "before-node") || mode === "down") return req.socket.destroy();
      const forward = nodeHttp.request(new URL(req.url ?? "/", target), { method: req.method, headers: { "content-type": "application/json" } }, (answer) => {
        const parts: Buffer[] = [];
        answer.on("data", (c: Buffer) => parts.push(c));
        answer.on("end", () => {
          if (isBroadcast && mode === "after-node") return req.socket.destroy();
          res.writeHead(answer.statusCode ?? 500, { "content-type": "application/json" });
          res.end(Buffer.concat(parts));
        });
      });
      forward.on("error", () => req.socket.destroy());
      forward.end(body);
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    drop: (m) => (mode = m),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe("e2e: a broadcast through a multi-node gateway is never sent twice blindly", function () {
  this.timeout(90_000);

  it("looks the tx hash up after a transport failure: found, not sent again; not found, sent once to another node; the failed node unaskable, not sent again", async () => {
    const home = path.join(tempDir(), "home");
    initDevHome(home, { mnemonic: TEST_MNEMONIC });
    let node: StartedNode | undefined;
    let relay: Awaited<ReturnType<typeof droppingRelay>> | undefined;
    let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
    try {
      node = await startNode(home);
      relay = await droppingRelay(node.rpcUrl);
      // the relay is the node the gateway prefers (an archive node is asked only when no other is eligible)
      const gatewayHome = path.join(tempDir(), "gateway-home");
      fs.mkdirSync(path.join(gatewayHome, "config"), { recursive: true });
      fs.writeFileSync(path.join(gatewayHome, "config", "app.toml"), '[gateway]\nprobe-interval = "300ms"\nerror-threshold = 5\n');
      gateway = await startGateway(gatewayHome, relay.url, ["--archive-node", node.rpcUrl]);
      const rest = gateway.restUrl;
      const signers = await Promise.all([1, 2, 3, 4].map((i) => testSigner(TEST_MNEMONIC, i)));
      const signed = async (index: number) => {
        const signer = signers[index]!;
        const account = await http(`${rest}/core/auth/v1beta1/accounts/${signer.address}`);
        return directTx(signer, {
          messages: [send(signer.address, signers[0]!.address, "1")],
          sequence: 0,
          accountNumber: Number(account.body.account.account_number),
        });
      };
      const post = (bytes: Uint8Array) =>
        http(`${rest}/core/tx/v1beta1/txs`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ tx_bytes: Buffer.from(bytes).toString("base64"), mode: "BROADCAST_MODE_BLOCK" }),
        });
      const broadcast = async (index: number) => post(await signed(index));
      const inBlocks = async (hash: string) =>
        (await http(`${node!.rpcUrl}/tx_search?query=${encodeURIComponent(`"tx.hash='${hash}'"`)}`)).body.result.total_count;

      const plain = await broadcast(0);
      expect(plain.status, plain.text).to.equal(200);
      expect(plain.headers.get("x-chain-rest-broadcast")).to.equal(`sent once, to ${relay.url}`);

      // the node got it and committed it; the answer was lost: found by its hash, not sent again
      relay.drop("after-node");
      const lostAnswer = await broadcast(1);
      expect(lostAnswer.status, lostAnswer.text).to.equal(200);
      expect(lostAnswer.body.tx_response.code).to.equal(0);
      const hash1 = lostAnswer.body.tx_response.txhash as string;
      expect(lostAnswer.headers.get("x-chain-rest-broadcast")).to.match(
        new RegExp(`^${relay.url} failed .*; tx ${hash1} found in block \\d+ on .*: not sent again$`),
      );
      expect(await inBlocks(hash1)).to.equal("1");

      // the node never got it: not found by its hash, sent once more to the other node
      relay.drop("before-node");
      const lostRequest = await broadcast(2);
      expect(lostRequest.status, lostRequest.text).to.equal(200);
      expect(lostRequest.body.tx_response.code).to.equal(0);
      const hash2 = lostRequest.body.tx_response.txhash as string;
      expect(lostRequest.headers.get("x-chain-rest-broadcast")).to.equal(
        `${relay.url} failed (node ${relay.url} is unavailable: ECONNRESET); tx ${hash2} not found on any node by its hash; sent once more, to ${node.rpcUrl}`,
      );
      expect(await inBlocks(hash2)).to.equal("1");

      // the connection reset and the node cannot be asked afterwards: it may hold the tx in its own blocks,
      // so it is not sent again, and the answer (503) says so (signed first: only the broadcast meets the drop)
      const bytes3 = await signed(3);
      relay.drop("down");
      const unsure = await post(bytes3);
      relay.drop("none");
      expect(unsure.status, unsure.text).to.equal(503);
      const hash3 = createHash("sha256").update(bytes3).digest("hex").toUpperCase();
      expect(unsure.headers.get("x-chain-rest-broadcast")).to.equal(
        `${relay.url} failed (node ${relay.url} is unavailable: ECONNRESET); tx ${hash3} not found on the nodes that answered, and ${relay.url}, which may have it, cannot be asked: not sent again (look it up by its hash before sending it again)`,
      );
      expect(await inBlocks(hash3)).to.equal("0");
    } finally {
      await gateway?.proc.stop();
      await relay?.close();
      await node?.proc.stop();
    }
  });
});
