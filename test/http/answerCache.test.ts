import { expect } from "chai";
import type { AbciQueryResponse, ChainClient, HeightListener, MessageQueryResponse } from "../../src/client/chainClient.js";
import type { ProtoMessage } from "../../src/codec/json/renderProto3.js";
import { RpcClient } from "../../src/client/rpcClient.js";
import { startRestServer } from "../../src/commands/restServer.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import type { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { InProcessClient } from "../../src/node/inProcessClient.js";
import { startRpcServer } from "../../src/node/rpc/rpcServer.js";
import { openDevNode, TEST_MNEMONIC } from "../helpers/devNode.js";
import { http, type HttpAnswer } from "../helpers/http.js";
import { testApiConfig } from "../helpers/testApiConfig.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";

/** The real in-process client, counting the queries that reach the node (as bytes or as messages). */
class CountingClient extends InProcessClient {
  queries = 0;
  override abciQuery(path: string, data: Uint8Array, height = 0): Promise<AbciQueryResponse> {
    this.queries++;
    return super.abciQuery(path, data, height);
  }
  override async queryMessage(path: string, request: ProtoMessage, height = 0): Promise<MessageQueryResponse | undefined> {
    const answer = await super.queryMessage(path, request, height);
    if (answer) this.queries++;
    return answer;
  }
}

const HEIGHT = "grpc-metadata-x-cosmos-block-height";
/** What a client can see of an answer: status, the headers that carry meaning, and the exact bytes. */
const seen = (r: HttpAnswer) => ({
  status: r.status,
  type: r.headers.get("content-type"),
  height: r.headers.get(HEIGHT),
  deprecation: r.headers.get("deprecation"),
  text: r.text,
});

describe("answers reused while the state has not changed", function () {
  this.timeout(60_000);
  let node: EmbeddedNode;
  let addresses: string[];
  let client: CountingClient;
  let rest: RunningServer;

  before(async () => {
    ({ node, addresses } = await openDevNode());
    client = new CountingClient(node);
    rest = await startRestServer(testApiConfig({ swagger: false }), "hub", client, node.codec);
  });
  after(async () => {
    await rest.close();
    await node.close();
  });

  const get = (route: string, height?: number) => http(rest.url + route, { headers: height === undefined ? {} : { "x-cosmos-block-height": String(height) } });

  async function sendFrom(index: number, to: string, amount: string, sequence: number): Promise<void> {
    const signer = await testSigner(TEST_MNEMONIC, index);
    const { hash, outcome } = await node.checkTx(await directTx(signer, { messages: [send(signer.address, to, amount)], sequence, accountNumber: index }));
    expect(outcome.code, outcome.log).to.equal(0);
    await node.waitForInclusion(hash); // the node makes the block as soon as a transaction waits
  }

  it("answers byte for byte alike from the fast index, from reuse and from the versions, for the same height", async () => {
    const [a, b] = addresses as [string, string];
    const routes = [`/core/bank/v1beta1/balances/${b}`, `/core/auth/v1beta1/accounts/${b}`, `/bank/balances/${b}`, `/core/bank/v1beta1/supply`];
    const h = node.height;
    const fast: HttpAnswer[] = [];
    for (const route of routes) fast.push(await get(route)); // the latest height: the fast index
    for (const route of routes) await get(route); // asked a second time: kept
    const asked = client.queries;
    const reused: HttpAnswer[] = [];
    for (const route of routes) reused.push(await get(route));
    expect(client.queries, "answers asked again at the same height come from memory").to.equal(asked);

    await sendFrom(0, b, "4321", 0); // height h+1 changes a's and b's balances
    expect(node.height).to.equal(h + 1);
    const versioned: HttpAnswer[] = [];
    for (const route of routes)
      versioned.push(await get(route.startsWith("/bank/") ? `${route}?height=${h}` : route, route.startsWith("/bank/") ? undefined : h));
    expect(client.queries, "height h is no longer the latest: read from the versions").to.be.above(asked);

    for (const [i, route] of routes.entries()) {
      expect(fast[i]!.status, `${route}: ${fast[i]!.text}`).to.equal(200);
      expect(seen(reused[i]!), `${route} reused`).to.deep.equal(seen(fast[i]!));
      expect(seen(versioned[i]!), `${route} at height ${h} from the versions`).to.deep.equal(seen(fast[i]!));
    }
    expect(fast[0]!.headers.get(HEIGHT)).to.equal(String(h));
    const now = await get(`/core/bank/v1beta1/balances/${a}`);
    expect(now.headers.get(HEIGHT)).to.equal(String(h + 1));
  });

  it("shows a new block at once: the commit empties the reused answers before anyone learns of it", async () => {
    const [, , c] = addresses as [string, string, string];
    const route = `/core/bank/v1beta1/balances/${c}/uhub`;
    const before = await get(route);
    await get(route); // kept
    expect((await get(route)).text).to.equal(before.text);
    await sendFrom(1, c, "99", 0);
    const after = await get(route);
    expect(BigInt(after.body.balance.amount)).to.equal(BigInt(before.body.balance.amount) + 99n);
    expect(after.headers.get(HEIGHT)).to.equal(String(node.height));
  });

  it("reuses nothing but 200 answers to GET requests", async () => {
    const asked = client.queries;
    for (let i = 0; i < 3; i++) await get("/core/bank/v1beta1/balances/hub1notanaddress");
    expect(client.queries - asked).to.equal(3);
  });

  it("follows a remote node's height over its NewBlock events, and tells when the subscription drops", async () => {
    const rpc = await startRpcServer(node, new InProcessClient(node), "tcp://127.0.0.1:0");
    const remote = new RpcClient(rpc.url);
    const told: Array<number | undefined> = [];
    let waiting: (() => void) | undefined;
    const next = () => new Promise<void>((resolve) => (waiting = resolve));
    const listener: HeightListener = (latest) => {
      told.push(latest);
      waiting?.();
    };
    let stop: (() => void) | undefined;
    try {
      let change = next();
      stop = remote.watchHeights(listener);
      await change; // subscribed, then the status told the height
      expect(told).to.deep.equal([node.height]);
      change = next();
      await node.produceBlock();
      await change;
      expect(told).to.deep.equal([node.height - 1, node.height]);
      change = next();
      await rpc.close(); // the websocket drops
      await change;
      expect(told.at(-1)).to.equal(undefined);
    } finally {
      stop?.();
      await rpc.close();
    }
  });

  it("reuses nothing while the client cannot tell the height", async () => {
    const blind: ChainClient = new InProcessClient(node);
    const listeners: HeightListener[] = []; // the answer cache and the shared executions each watch
    blind.watchHeights = (l) => (listeners.push(l), l(node.height), () => undefined);
    const counted = new CountingClient(node);
    counted.watchHeights = blind.watchHeights?.bind(blind);
    const server = await startRestServer(testApiConfig({ swagger: false }), "hub", counted, node.codec);
    try {
      const route = `${server.url}/core/bank/v1beta1/params`;
      for (let i = 0; i < 3; i++) await http(route); // the second is kept, the third reused
      expect(counted.queries).to.equal(2);
      for (const listener of listeners) listener(undefined); // as a dropped subscription says
      for (let i = 0; i < 3; i++) await http(route);
      expect(counted.queries).to.equal(5);
    } finally {
      await server.close();
    }
  });
});
