import { expect } from "chai";
import { InProcessClient } from "../../src/node/inProcessClient.js";
import type { EmbeddedNode } from "../../src/node/embeddedNode.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { startRestServer } from "../../src/commands/restServer.js";
import { txServiceQueries } from "../../src/commands/serviceQueries.js";
import { openDevNode, TEST_MNEMONIC } from "../helpers/devNode.js";
import { http, type HttpAnswer } from "../helpers/http.js";
import { pollUntil } from "../helpers/poll.js";
import { testApiConfig } from "../helpers/testApiConfig.js";
import { aminoSend, directTx, send, testSigner, type TestSigner } from "../helpers/txSigner.js";
import { aminoWallet } from "../helpers/aminoWallet.js";

/** What LevelDB throws when the disk is full (classic-level's IO error). */
const diskFull = () => Object.assign(new Error("IO error: /data/state.db/000012.log: No space left on device"), { code: "LEVEL_IO_ERROR" });

/**
 * A full disk, made by failing the store's batch writes (its test hook): a
 * block that cannot be written refuses broadcasts with 503 / code 14, keeps
 * nothing of the block, puts the check state back to the committed state, and
 * once writes succeed again the node commits by itself — the waiting
 * transaction included, every transaction committed before still there, and
 * the next sequence accepted.
 */
describe("hardening: blocks that cannot be written (a full disk)", function () {
  this.timeout(120_000);
  let node: EmbeddedNode;
  let rest: RunningServer;
  let signer: TestSigner;
  let to: string;

  before(async () => {
    let addresses: string[];
    ({ node, addresses } = await openDevNode());
    const client = new InProcessClient(node);
    for (const { path, handler } of txServiceQueries(node.codec, client, "hub")) node.serveQuery(path, handler);
    rest = await startRestServer(testApiConfig({ swagger: false }), "hub", client, node.codec);
    signer = await testSigner(TEST_MNEMONIC, 4);
    to = addresses[3]!;
  });
  after(async () => {
    node?.store.failWritesForTest(undefined);
    await rest?.close();
    await node?.close();
  });

  const post = (route: string, body: unknown) =>
    http(rest.url + route, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const broadcast = async (sequence: number, mode: string): Promise<HttpAnswer> => {
    const bytes = await directTx(signer, { accountNumber: 4, sequence, messages: [send(signer.address, to, String(100 + sequence))] });
    return post("/core/tx/v1beta1/txs", { tx_bytes: Buffer.from(bytes).toString("base64"), mode });
  };
  const committed = (hash: string) =>
    pollUntil(
      () => http(`${rest.url}/core/tx/v1beta1/txs/${hash}`),
      (r) => r.status === 200,
    );
  const committedSequence = async () => Number((await http(`${rest.url}/core/auth/v1beta1/accounts/${signer.address}`)).body.account.sequence);

  it("refuses broadcasts with 503 / code 14 while blocks cannot be written, then resumes by itself and loses nothing", async () => {
    const before = await broadcast(0, "BROADCAST_MODE_BLOCK");
    expect(before.body.tx_response.code, before.text).to.equal(0);
    const heightBefore = node.height;

    node.store.failWritesForTest(diskFull());
    const waiting = await broadcast(1, "BROADCAST_MODE_SYNC"); // accepted: its block is the one that cannot be written
    expect(waiting.body.tx_response.code, waiting.text).to.equal(0);
    // a probe CheckTx would refuse anyway (wrong sequence), so probing changes nothing until the refusal comes
    const refused = await pollUntil(
      () => broadcast(99, "BROADCAST_MODE_SYNC"),
      (r) => r.status !== 200,
    );
    expect(refused.status, refused.text).to.equal(503);
    expect(refused.body).to.deep.equal({ code: 14, message: "cannot write blocks: no space left on device", details: [] });
    for (const mode of ["BROADCAST_MODE_SYNC", "BROADCAST_MODE_ASYNC", "BROADCAST_MODE_BLOCK"]) {
      const answer = await broadcast(2, mode);
      expect(answer.status, `${mode}: ${answer.text}`).to.equal(503);
    }
    const wallet = await aminoWallet(4);
    const msgs = [aminoSend(wallet.address, to, "7")];
    const fee = { amount: [{ denom: "uhub", amount: "2000" }], gas: "200000" };
    const legacy = await post("/txs", { tx: { msg: msgs, fee, signatures: [await wallet.sign(msgs, fee, "", 2)], memo: "" }, mode: "sync" });
    expect(legacy.status, legacy.text).to.equal(503);
    expect(legacy.text).to.include("cannot write blocks: no space left on device");
    expect(node.height).to.equal(heightBefore);
    expect(await committedSequence()).to.equal(1); // the committed state: the waiting tx is not in it
    // reads are answered meanwhile, and what was committed before is there
    expect((await committed(before.body.tx_response.txhash)).body.tx_response.code).to.equal(0);

    node.store.failWritesForTest(undefined);
    const resumed = await committed(waiting.body.tx_response.txhash);
    expect(resumed.body.tx_response.code, resumed.text).to.equal(0);
    expect(Number(resumed.body.tx_response.height)).to.be.greaterThan(heightBefore);
    expect(await committedSequence()).to.equal(2);

    const next = await broadcast(2, "BROADCAST_MODE_BLOCK");
    expect(next.body.tx_response.code, next.text).to.equal(0);
    expect(await committedSequence()).to.equal(3);
    expect((await committed(before.body.tx_response.txhash)).body.tx_response.code).to.equal(0);
  });
});
