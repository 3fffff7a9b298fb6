import { expect } from "chai";
import { decodeBech32Address } from "../../../../src/codec/bech32.js";
import { makeRandom } from "../../../../src/node/modules/random/rng.js";
import { attributesOf, decodeEvents, NodeTxKit } from "../../../helpers/nodeTxKit.js";

type Json = Record<string, any>;

describe("random: the number (types/rng.go)", () => {
  it("gives the check values worked from the v1.3.1 algorithm", () => {
    const [hash, consumer] = [new Uint8Array(32).fill(0x11), new Uint8Array(20).fill(0x22)];
    expect(makeRandom(hash, 1600000000n, consumer)).to.deep.equal({ value: "0.20908758591493126346", fraction: "10454379295746563173/50000000000000000000" });
    expect(makeRandom(hash, 1600000000n, consumer, new Uint8Array(32).fill(0x33))).to.deep.equal({
      value: "0.95222244960926782671",
      fraction: "95222244960926782671/100000000000000000000",
    });
  });
});

/** MsgRequestRandom in blocks of an in-process dev node: queued, then generated in the BeginBlock after its height. */
describe("random Msgs", function () {
  this.timeout(60_000);
  let kit: NodeTxKit;
  before(async () => {
    kit = await NodeTxKit.open(4);
  });
  after(() => kit.close());

  const request = (from: number, blockInterval: number, oracle = false) => ({
    typeUrl: "/extmod.random.MsgRequestRandom",
    value: { block_interval: String(blockInterval), consumer: kit.addresses[from], oracle, service_fee_cap: [] },
  });

  it("queues a request for height + block_interval; the next block's BeginBlock stores the number from its header", async () => {
    const requested = await kit.deliver(2, [request(2, 2)]);
    expect(requested.code, requested.log).to.equal(0);
    const [event] = attributesOf(requested.events, "request_random");
    expect(event).to.include({ consumer: kit.addresses[2], generate_height: String(requested.height + 2), oracle: "false" });
    const queue = (await kit.query("extmod.random.Query.RandomRequestQueue", { height: String(requested.height + 2) })).body.requests as Json[];
    expect(queue.map((r) => r.consumer)).to.deep.equal([kit.addresses[2]]);
    let generating = await kit.block();
    while (generating.height < requested.height + 3) generating = await kit.block();
    expect(generating.height).to.equal(requested.height + 3);
    const [generated] = attributesOf(generating.beginEvents, "generate_random");
    expect(generated!.request_id).to.equal(event!.request_id);
    const random = (await kit.query("extmod.random.Query.Random", { req_id: event!.request_id })).body.random as Json;
    // the number of block h+3's header: the previous block's hash and the block time in seconds
    const header = (await kit.node.committed(generating.height))!.block.block.header;
    const expected = makeRandom(
      Uint8Array.from(Buffer.from(header.last_block_id.hash, "hex")),
      BigInt(Math.floor(Date.parse(header.time) / 1000)),
      decodeBech32Address(kit.addresses[2]!, "hub", "consumer"),
    );
    expect(random).to.deep.include({ height: String(requested.height + 2), value: expected.value });
    expect(generated!.random).to.equal(expected.fraction);
  });

  it("refuses the oracle option before any binding of the random service (none on the dev chain), and a bad fee cap", async () => {
    const oracle = await kit.deliver(3, [request(3, 1, true)]);
    expect([oracle.codespace, oracle.code, oracle.log]).to.deep.equal([
      "random",
      4,
      "failed to execute message; message index: 0: no service bindings available",
    ]);
    const cap = await kit.deliver(3, [{ ...request(3, 1), value: { ...request(3, 1).value, service_fee_cap: [{ denom: "uhub", amount: "0" }] } }]);
    expect([cap.codespace, cap.code, cap.log]).to.deep.equal(["random", 6, "0uhub: invalid service fee cap"]);
  });

  it("with the oracle option, a provider of the random service answers a seed and the number is made from it (random/keeper/service.go)", async () => {
    const ok = (d: { code: number; log: string }) => expect(d.code, d.log).to.equal(0);
    const schemas = JSON.stringify({ input: { type: "object" }, output: { type: "object", properties: { seed: { type: "string" } } } });
    ok(
      await kit.deliver(0, [
        {
          typeUrl: "/extmod.service.MsgDefineService",
          value: { name: "random", description: "", tags: [], author: kit.addresses[0], author_description: "", schemas },
        },
      ]),
    );
    const binding = {
      service_name: "random",
      provider: kit.addresses[1],
      deposit: [{ denom: "uhub", amount: "5000" }],
      pricing: JSON.stringify({ price: "1uhub" }),
      qos: "1",
      options: "{}",
      owner: kit.addresses[1],
    };
    ok(await kit.deliver(1, [{ typeUrl: "/extmod.service.MsgBindService", value: binding }]));
    const withCap = (amount: string) => ({ ...request(2, 1, true), value: { ...request(2, 1, true).value, service_fee_cap: [{ denom: "uhub", amount }] } });
    const poor = await kit.deliver(2, [withCap("100000000000000000000")]);
    expect([poor.codespace, poor.code, poor.log]).to.deep.equal(["sdk", 13, "failed to execute message; message index: 0: insufficient fee"]);

    const requested = await kit.deliver(2, [withCap("10")]);
    ok(requested);
    const [event] = attributesOf(requested.events, "request_random");
    expect(event).to.include({ consumer: kit.addresses[2], oracle: "true", generate_height: String(requested.height + 1) });
    const [queued] = (await kit.query("extmod.random.Query.RandomRequestQueue", { height: String(requested.height + 1) })).body.requests as Json[];
    const contextId = queued!.service_context_id as string;
    const context = (await kit.query("extmod.service.Query.RequestContext", { request_context_id: contextId })).body.request_context as Json;
    expect(context).to.deep.include({ service_name: "random", module_name: "random", providers: [kit.addresses[1]], state: "PAUSED", timeout: "100" });

    // the BeginBlock after the generation height starts the context; that block's EndBlock sends the request
    while (kit.height < requested.height + 2) await kit.block();
    const started = (await kit.node.committed(requested.height + 2))!;
    const begin = decodeEvents(started.results.begin_block_events);
    expect(attributesOf(begin, "request_service")).to.deep.equal([{ request_id: event!.request_id, request_context_id: contextId }]);
    const [serviceRequest] = (await kit.query("extmod.service.Query.RequestsByReqCtx", { request_context_id: contextId, batch_counter: "1" })).body
      .requests as Json[];
    expect(serviceRequest!.provider).to.equal(kit.addresses[1]);

    const seed = "ab".repeat(32);
    const output = JSON.stringify({ header: {}, body: { seed } });
    const responded = await kit.deliver(1, [
      {
        typeUrl: "/extmod.service.MsgRespondService",
        value: { request_id: serviceRequest!.id, provider: kit.addresses[1], result: JSON.stringify({ code: 200, message: "" }), output },
      },
    ]);
    ok(responded);
    const [generated] = attributesOf(responded.events, "generate_random");
    expect(generated!.request_id).to.equal(event!.request_id);
    const header = (await kit.node.committed(responded.height))!.block.block.header;
    const expected = makeRandom(
      Uint8Array.from(Buffer.from(header.last_block_id.hash, "hex")),
      BigInt(Math.floor(Date.parse(header.time) / 1000)),
      decodeBech32Address(kit.addresses[2]!, "hub", "consumer"),
      Uint8Array.from(Buffer.from(seed, "hex")),
    );
    const random = (await kit.query("extmod.random.Query.Random", { req_id: event!.request_id })).body.random as Json;
    expect(random).to.deep.include({ height: String(responded.height - 1), value: expected.value });
    expect(generated!.random).to.equal(expected.fraction);
  });
});
