import { expect } from "chai";
import { aminoWallet, type AminoWallet } from "../../../helpers/aminoWallet.js";
import { TEST_MNEMONIC } from "../../../helpers/devNode.js";
import { LegacyTxFlow } from "../../../helpers/legacyTxFlow.js";
import { serviceBinding } from "../../../helpers/serviceBinding.js";
import { useStartedDevChain } from "../../../helpers/startedDevChain.js";
import { directTx, testSigner } from "../../../helpers/txSigner.js";

type Event = { type: string; attributes: Array<{ key: string; value: string }> };
type Json = Record<string, any>;

const attribute = (body: Json, type: string, key: string) =>
  (body.logs[0].events as Event[]).find((e) => e.type === type)!.attributes.find((a) => a.key === key)!.value;
const OK_RESULT = JSON.stringify({ code: 200, message: "" });

/**
 * A user's service flow over HTTP (the legacy bodies are amino JSON: 64-bit integers quoted): a service defined and bound, called and answered through the
 * legacy generate routes (signed with @cosmjs/amino, POST /txs), the earned fees withdrawn with a
 * cosmjs Direct transaction on the gateway; read back on both families. A dev chain has no provider
 * daemon: the provider's account responds.
 */
describe("e2e: service transactions", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain({ accounts: 4, mnemonic: TEST_MNEMONIC });
  const flow = new LegacyTxFlow(() => chain.node().restUrl);
  let author: AminoWallet, provider: AminoWallet, consumer: AminoWallet;
  before(async () => {
    [author, provider, consumer] = await Promise.all([aminoWallet(0), aminoWallet(1), aminoWallet(2)]);
  });
  const schemas = JSON.stringify({ input: { type: "object" }, output: { type: "object", properties: { echo: { type: "string" } } } });
  const call = (extra: Json = {}) => ({
    service_name: "e2e-echo",
    providers: [provider.address],
    consumer: consumer.address,
    input: JSON.stringify({ header: {}, body: { say: "hello" } }),
    service_fee_cap: "100uhub",
    timeout: "30",
    repeated: false,
    repeated_frequency: "0",
    repeated_total: "0",
    ...extra,
  });

  it("defines a service (POST /service/definitions) and binds a provider (POST /service/bindings); a second binding is refused", async () => {
    const defined = await flow.send(author, "/service/definitions", {
      name: "e2e-echo",
      description: "echoes",
      tags: ["e2e"],
      author: author.address,
      author_description: "",
      schemas,
    });
    expect(defined.body.code, defined.body.raw_log).to.equal(undefined);
    expect((await chain.ok("/extmod/service/definitions/e2e-echo")).service_definition).to.include({ name: "e2e-echo", author: author.address });
    const binding = serviceBinding("e2e-echo", provider.address);
    const bound = await flow.send(provider, "/service/bindings", binding);
    expect(bound.body.code, bound.body.raw_log).to.equal(undefined);
    expect((await chain.ok(`/extmod/service/bindings/e2e-echo/${provider.address}`)).service_binding).to.deep.include({
      available: true,
      deposit: [{ denom: "uhub", amount: "5000" }],
    });
    expect((await chain.ok(`/service/bindings/e2e-echo/${provider.address}`)).result).to.deep.include({ provider: provider.address, owner: provider.address });
    const twice = await flow.send(provider, "/service/bindings", binding);
    expect([twice.body.codespace, twice.body.code, twice.body.raw_log]).to.deep.equal([
      "service",
      13,
      "failed to execute message; message index: 0: service binding already exists",
    ]);
  });

  it("calls the service (POST /service/contexts); the provider answers its request (POST /service/responses) and earns the fee", async () => {
    const feesBefore = BigInt(((await chain.ok(`/extmod/service/fees/${provider.address}`)).fees as Json[])[0]!.amount);
    const called = await flow.send(consumer, "/service/contexts", call());
    expect(called.body.code, called.body.raw_log).to.equal(undefined);
    const contextId = attribute(called.body, "create_context", "request_context_id");
    expect((await chain.ok(`/extmod/service/contexts/${contextId}`)).request_context).to.deep.include({ batch_counter: "1", state: "RUNNING" });
    expect((await chain.ok(`/service/contexts/${contextId}`)).result).to.deep.include({ service_name: "e2e-echo", consumer: consumer.address });
    const [request] = (await chain.ok(`/extmod/service/requests/e2e-echo/${provider.address}`)).requests as Json[];
    expect(request).to.deep.include({ request_context_id: contextId, service_fee: [{ denom: "uhub", amount: "1" }] });

    const output = JSON.stringify({ header: {}, body: { echo: "hello" } });
    const responded = await flow.send(provider, "/service/responses", { request_id: request!.id, provider: provider.address, result: OK_RESULT, output });
    expect(responded.body.code, responded.body.raw_log).to.equal(undefined);
    expect((await chain.ok(`/extmod/service/responses/${request!.id}`)).response).to.deep.include({ output, consumer: consumer.address });
    expect((await chain.ok(`/service/responses/${request!.id}`)).result).to.deep.include({ output });
    // 1uhub less the 5% tax truncated to 0
    const feesAfter = BigInt(((await chain.ok(`/extmod/service/fees/${provider.address}`)).fees as Json[])[0]!.amount);
    expect(feesAfter - feesBefore).to.equal(1n);

    const again = await flow.send(provider, "/service/responses", { request_id: request!.id, provider: provider.address, result: OK_RESULT, output });
    expect([again.body.codespace, again.body.code, again.body.raw_log]).to.deep.equal([
      "service",
      24,
      "failed to execute message; message index: 0: request is not active: invalid response",
    ]);
  });

  it("pauses and kills a repeated context of its consumer (POST /service/contexts/{id}/pause|kill); another account may not", async () => {
    const called = await flow.send(consumer, "/service/contexts", call({ repeated: true, repeated_frequency: "40", repeated_total: "-1" }));
    expect(called.body.code, called.body.raw_log).to.equal(undefined);
    const contextId = attribute(called.body, "create_context", "request_context_id");
    const stranger = await flow.send(author, `/service/contexts/${contextId}/pause`, { consumer: author.address });
    expect([stranger.body.codespace, stranger.body.code, stranger.body.raw_log]).to.deep.equal([
      "service",
      41,
      "failed to execute message; message index: 0: consumer not matching: not authorized",
    ]);
    const paused = await flow.send(consumer, `/service/contexts/${contextId}/pause`, { consumer: consumer.address });
    expect(paused.body.code, paused.body.raw_log).to.equal(undefined);
    expect((await chain.ok(`/extmod/service/contexts/${contextId}`)).request_context.state).to.equal("PAUSED");
    const killed = await flow.send(consumer, `/service/contexts/${contextId}/kill`, { consumer: consumer.address });
    expect(killed.body.code, killed.body.raw_log).to.equal(undefined);
    expect((await chain.ok(`/extmod/service/contexts/${contextId}`)).request_context.state).to.equal("COMPLETED");
  });

  it("withdraws the provider's earned fees to its owner's withdraw address (Direct signing, POST /core/tx/v1beta1/txs)", async () => {
    const signer = await testSigner(TEST_MNEMONIC, 1);
    const account = (await chain.ok(`/core/auth/v1beta1/accounts/${signer.address}`)).account;
    const withdrawTo = (await chain.ok(`/extmod/service/owners/${signer.address}/withdraw-address`)).withdraw_address as string;
    const balance = async () => BigInt((await chain.ok(`/core/bank/v1beta1/balances/${withdrawTo}/uhub`)).balance.amount);
    const fees = BigInt(((await chain.ok(`/extmod/service/fees/${signer.address}`)).fees as Json[])[0]!.amount);
    const before = await balance();
    const bytes = await directTx(signer, {
      messages: [{ typeUrl: "/extmod.service.MsgWithdrawEarnedFees", value: { owner: signer.address, provider: signer.address } }],
      sequence: Number(account.sequence),
      accountNumber: Number(account.account_number),
    });
    const sent = await flow.post("/core/tx/v1beta1/txs", { tx_bytes: Buffer.from(bytes).toString("base64"), mode: "BROADCAST_MODE_BLOCK" });
    expect(sent.body.tx_response.code, sent.body.tx_response.raw_log).to.equal(0);
    expect((await balance()) - before).to.equal(fees);
    expect((await chain.get(`/extmod/service/fees/${signer.address}`)).status).to.equal(404);
    // the legacy route decodes the same transaction
    const legacyTx = (await chain.ok(`/txs/${sent.body.tx_response.txhash}`)).tx.value.msg[0];
    expect(legacyTx).to.deep.equal({ type: "extmod/service/MsgWithdrawEarnedFees", value: { owner: signer.address, provider: signer.address } });
  });

  it("POST /txs/encode and /txs/decode round-trip a signed MsgCallService under its amino name", async () => {
    const generated = await flow.post("/service/contexts", {
      base_req: { from: consumer.address, chain_id: "devnet-1", fees: [{ denom: "uhub", amount: "2000" }], gas: "400000" },
      ...call({ repeated: true, repeated_frequency: "40", repeated_total: "3" }),
    });
    expect(generated.status, generated.text).to.equal(200);
    const unsigned = generated.body.value;
    expect(unsigned.msg[0].type).to.equal("extmod/service/MsgCallService");
    const signature = await consumer.sign(unsigned.msg, unsigned.fee, unsigned.memo, 99);
    const stdTx = { ...unsigned, signatures: [signature] };
    const encoded = await flow.post("/txs/encode", { type: "core-sdk/StdTx", value: stdTx });
    expect(encoded.status, encoded.text).to.equal(200);
    const decoded = await flow.post("/txs/decode", { tx: encoded.body.tx });
    expect(decoded.status, decoded.text).to.equal(200);
    expect(decoded.body.result.msg).to.deep.equal(unsigned.msg);
  });
});
