import { expect } from "chai";
import type { HeightListener } from "../../src/client/chainClient.js";
import { SharedHeight } from "../../src/client/sharedHeight.js";
import { startRestServer } from "../../src/commands/restServer.js";
import type { HeightExchange } from "../../src/http/answerCache.js";
import type { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { InProcessClient } from "../../src/node/inProcessClient.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { openDevNode, TEST_MNEMONIC } from "../helpers/devNode.js";
import { http } from "../helpers/http.js";
import { testApiConfig } from "../helpers/testApiConfig.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";

/**
 * The node's client as a REST worker has it when a commit's height message
 * still waits in its channel: the first height is told, later ones are held
 * until the test releases them.
 */
class LateNoticeClient extends InProcessClient {
  private readonly held: Array<() => void> = [];
  override watchHeights(listener: HeightListener): () => void {
    let first = true;
    return super.watchHeights((latest) => {
      if (first) listener(latest);
      else this.held.push(() => listener(latest));
      first = false;
    });
  }
  release(): void {
    for (const tell of this.held.splice(0)) tell();
  }
}

describe("a REST worker whose height notice comes late reuses no answer from before the commit", function () {
  this.timeout(60_000);
  let node: EmbeddedNode;
  let addresses: string[];
  let height: SharedHeight;
  let sequence = 0;

  before(async () => {
    ({ node, addresses } = await openDevNode());
    height = SharedHeight.create(2);
    height.write(0, node.height);
    // as the main process of `start` does: the file first, before any other listener of the node
    node.prependListener("commit", (latest: number) => height.write(0, latest));
  });
  after(async () => {
    height.remove();
    await node.close();
  });

  async function balanceAfterCommit(exchange: HeightExchange | undefined): Promise<{ before: bigint; after: bigint }> {
    const client = new LateNoticeClient(node);
    const rest: RunningServer = await startRestServer(testApiConfig({ swagger: false }), "hub", client, node.codec, undefined, { sharedHeight: exchange });
    try {
      const [a, b] = addresses as [string, string];
      const route = `${rest.url}/core/bank/v1beta1/balances/${b}/uhub`;
      const amount = async () => BigInt((await http(route)).body.balance.amount);
      const before = await amount();
      await amount(); // kept
      expect(await amount()).to.equal(before); // reused
      const signer = await testSigner(TEST_MNEMONIC, 0);
      const tx = await directTx(signer, { messages: [send(a, b, "777")], sequence: sequence++, accountNumber: 0 });
      const { hash, outcome } = await node.checkTx(tx);
      expect(outcome.code, outcome.log).to.equal(0);
      await node.waitForInclusion(hash); // committed: the client has seen it; this server's notice is still held
      const after = await amount();
      client.release();
      return { before, after };
    } finally {
      await rest.close();
    }
  }

  it("with the shared height file it answers the committed state", async () => {
    const { before, after } = await balanceAfterCommit({ read: () => height.read(), tell: (latest) => height.write(1, latest) });
    expect(after).to.equal(before + 777n);
  });

  it("without it (the notice alone) it would answer from before the commit: what the file is for", async () => {
    const { before, after } = await balanceAfterCommit(undefined);
    expect(after).to.equal(before);
  });
});
