import { expect } from "chai";
import { aminoWallet } from "../../../helpers/aminoWallet.js";
import { TEST_MNEMONIC } from "../../../helpers/devNode.js";
import { LegacyTxFlow } from "../../../helpers/legacyTxFlow.js";
import { serviceBinding } from "../../../helpers/serviceBinding.js";
import { useStartedDevChain } from "../../../helpers/startedDevChain.js";

type Event = { type: string; attributes: Array<{ key: string; value: string }> };

/** A random requested with POST /random/randoms (signed with @cosmjs/amino, POST /txs), generated in a later block, read on both families. */
describe("e2e: random transactions", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain({ accounts: 4, mnemonic: TEST_MNEMONIC });
  const flow = new LegacyTxFlow(() => chain.node().restUrl);

  it("requests a random for the same block; the next block generates it; both families answer it", async () => {
    const consumer = await aminoWallet(2);
    const sent = await flow.send(consumer, "/random/randoms", { consumer: consumer.address, block_interval: "0", oracle: false, service_fee_cap: [] });
    expect(sent.body.code, sent.body.raw_log).to.equal(undefined);
    const request = (sent.body.logs[0].events as Event[]).find((e) => e.type === "request_random")!;
    const id = request.attributes.find((a) => a.key === "request_id")!.value;
    expect((await chain.get(`/extmod/random/randoms/${id}`)).status).to.equal(404);
    // any transaction makes the next block, whose BeginBlock generates the number
    const other = await aminoWallet(3);
    const next = await flow.send(other, `/bank/accounts/${consumer.address}/transfers`, { amount: [{ denom: "uhub", amount: "1" }] });
    expect(next.body.code, next.body.raw_log).to.equal(undefined);
    const random = (await chain.ok(`/extmod/random/randoms/${id}`)).random;
    expect(random.request_tx_hash).to.equal(sent.body.txhash.toLowerCase());
    expect(random.height).to.equal(sent.body.height);
    expect(random.value).to.match(/^0\.\d{20}$/);
    expect((await chain.ok(`/random/randoms/${id}`)).result).to.deep.include({ value: random.value });
  });

  it("refuses the oracle option on a chain where nobody provides the random service (random 4)", async () => {
    const consumer = await aminoWallet(1);
    const sent = await flow.send(consumer, "/random/randoms", {
      consumer: consumer.address,
      block_interval: "1",
      oracle: true,
      service_fee_cap: [{ denom: "uhub", amount: "100" }],
    });
    expect([sent.body.codespace, sent.body.code]).to.deep.equal(["random", 4]);
  });

  it("with the oracle option and a binding of the random service, the provider's seed makes the number (random/keeper/service.go)", async () => {
    const [author, provider, consumer, other] = await Promise.all([aminoWallet(0), aminoWallet(1), aminoWallet(2), aminoWallet(3)]);
    const ok = (answer: { body: Record<string, any> }) => expect(answer.body.code, answer.body.raw_log).to.equal(undefined);
    // irishub's InitChainer adds the random service; the dev chain's genesis lacks it, so it is defined here
    const schemas = JSON.stringify({ input: { type: "object" }, output: { type: "object", properties: { seed: { type: "string" } } } });
    ok(await flow.send(author, "/service/definitions", { name: "random", description: "", tags: [], author: author.address, author_description: "", schemas }));
    ok(await flow.send(provider, "/service/bindings", serviceBinding("random", provider.address)));
    const sent = await flow.send(consumer, "/random/randoms", {
      consumer: consumer.address,
      block_interval: "0",
      oracle: true,
      service_fee_cap: [{ denom: "uhub", amount: "10" }],
    });
    ok(sent);
    const request = (sent.body.logs[0].events as Event[]).find((e) => e.type === "request_random")!;
    const id = request.attributes.find((a) => a.key === "request_id")!.value;
    // the next block's BeginBlock starts the service context; its EndBlock sends the provider a request
    ok(await flow.send(other, `/bank/accounts/${consumer.address}/transfers`, { amount: [{ denom: "uhub", amount: "1" }] }));
    const [serviceRequest] = (await chain.ok(`/extmod/service/requests/random/${provider.address}`)).requests as Array<Record<string, any>>;
    expect(serviceRequest).to.deep.include({ consumer: consumer.address, input: JSON.stringify({ header: {} }) });
    expect((await chain.get(`/extmod/random/randoms/${id}`)).status).to.equal(404);
    const responded = await flow.send(provider, "/service/responses", {
      request_id: serviceRequest!.id,
      provider: provider.address,
      result: JSON.stringify({ code: 200, message: "" }),
      output: JSON.stringify({ header: {}, body: { seed: "5e".repeat(32) } }),
    });
    ok(responded);
    const random = (await chain.ok(`/extmod/random/randoms/${id}`)).random;
    expect(random).to.deep.include({ request_tx_hash: sent.body.txhash.toLowerCase(), height: String(Number(responded.body.height) - 1) });
    expect(random.value).to.match(/^0\.\d{20}$/);
    expect((await chain.ok(`/random/randoms/${id}`)).result).to.deep.include({ value: random.value });
  });
});
