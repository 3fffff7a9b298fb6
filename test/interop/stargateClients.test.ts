import { expect } from "chai";
import path from "node:path";
import { StargateClient } from "@cosmjs/stargate";
import { StargateClient as StargateClient034 } from "stargate-tm34";
import { http } from "../helpers/http.js";
import { startNode, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";

/** The RPC client a StargateClient chose (the class is protected API). */
const cometClientOf = (client: object) => (client as unknown as { getCometClient(): object | undefined }).getCometClient()?.constructor.name;

/**
 * @cosmjs/stargate's auto-detecting StargateClient.connect(url) against the
 * node's JSON-RPC: it reads `status`.node_info.version and picks its RPC
 * client by it. The 0.34 line has a Tendermint 0.34 client and must pick it;
 * the current line (0.39) no longer has one and falls back to its 0.37 client.
 */
describe("interop: @cosmjs/stargate StargateClient.connect on the node's RPC", function () {
  this.timeout(60_000);
  const home = path.join(tempDir(), "home");
  let node: StartedNode;

  before(async () => {
    initDevHome(home, { accounts: 6, mnemonic: TEST_MNEMONIC });
    node = await startNode(home);
  });
  after(() => node?.proc.stop());

  /** A send from dev account `from`, signed with cosmjs, as the bytes StargateClient.broadcastTx takes. */
  async function sendTx(from: number, to: number, amount: string): Promise<{ bytes: Uint8Array; sender: string; recipient: string }> {
    const [a, b] = await Promise.all([testSigner(TEST_MNEMONIC, from), testSigner(TEST_MNEMONIC, to)]);
    const account = (await http(`${node.restUrl}/core/auth/v1beta1/accounts/${a.address}`)).body.account;
    const bytes = await directTx(a, {
      messages: [send(a.address, b.address, amount)],
      sequence: Number(account.sequence),
      accountNumber: Number(account.account_number),
    });
    return { bytes, sender: a.address, recipient: b.address };
  }

  it("status reports the engine's 0.34 version and the RPC listen address, as a 0.34 node does", async () => {
    const status = (await http(`${node.rpcUrl}/status`)).body.result;
    expect(status.node_info.version).to.match(/^0\.34\.\d+$/);
    expect(status.node_info.other).to.deep.equal({ tx_index: "on", rpc_address: node.rpcUrl.replace(/^http:/, "tcp:") });
    const nodeInfo = (await http(`${node.restUrl}/core/base/consensus/v1beta1/node_info`)).body.default_node_info;
    expect(nodeInfo.version).to.equal(status.node_info.version);
    expect(nodeInfo.other.rpc_address).to.equal(status.node_info.other.rpc_address);
  });

  it("@cosmjs/stargate 0.34 picks its Tendermint 0.34 client: chain id, blocks, broadcast, and the tx found with its events decoded", async () => {
    const client = await StargateClient034.connect(node.rpcUrl);
    try {
      expect(cometClientOf(client)).to.equal("Tendermint34Client");
      expect(await client.getChainId()).to.equal("devnet-1");
      const { bytes, sender, recipient } = await sendTx(2, 3, "7");
      const result = await client.broadcastTx(bytes, 60_000, 200);
      expect(result.code, result.rawLog).to.equal(0);
      // event attributes are base64 on a 0.34 node's wire; the 0.34 client decodes them
      const transfer = (events: readonly { type: string; attributes: readonly { key: string; value: string }[] }[]) =>
        events.filter((e) => e.type === "transfer").map((e) => Object.fromEntries(e.attributes.map((a) => [a.key, a.value])));
      expect(transfer(result.events)).to.deep.include({ recipient, sender, amount: "7uhub" });
      const found = await client.getTx(result.transactionHash);
      expect(found?.height).to.equal(result.height);
      expect(transfer(found!.events)).to.deep.include({ recipient, sender, amount: "7uhub" });
      expect((await client.searchTx(`message.sender='${sender}'`)).map((t) => t.hash)).to.deep.equal([result.transactionHash]);
      const block = await client.getBlock(result.height);
      expect(block.header.chainId).to.equal("devnet-1");
      expect(block.txs).to.have.length(1);
      expect(await client.getHeight()).to.be.at.least(result.height);
    } finally {
      client.disconnect();
    }
  });

  it("the current @cosmjs/stargate (0.39) has no 0.34 client: it falls back to its 0.37 one, whose events keep the 0.34 wire's base64", async () => {
    const client = await StargateClient.connect(node.rpcUrl);
    try {
      expect(cometClientOf(client)).to.equal("Tendermint37Client");
      const { bytes, sender } = await sendTx(4, 5, "9");
      const result = await client.broadcastTx(bytes, 60_000, 200);
      expect(result.code, result.rawLog).to.equal(0);
      expect((await client.searchTx(`message.sender='${sender}'`)).map((t) => t.hash)).to.deep.equal([result.transactionHash]);
      const attribute = result.events.find((e) => e.type === "transfer")!.attributes[0]!;
      expect(attribute.key).to.equal(Buffer.from("recipient").toString("base64"));
    } finally {
      client.disconnect();
    }
  });
});
