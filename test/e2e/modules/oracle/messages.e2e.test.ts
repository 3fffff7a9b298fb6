import { expect } from "chai";
import { aminoWallet, type AminoWallet } from "../../../helpers/aminoWallet.js";
import { TEST_MNEMONIC } from "../../../helpers/devNode.js";
import { LegacyTxFlow } from "../../../helpers/legacyTxFlow.js";
import { serviceBinding } from "../../../helpers/serviceBinding.js";
import { useStartedDevChain } from "../../../helpers/startedDevChain.js";

type Json = Record<string, any>;
const OK_RESULT = JSON.stringify({ code: 200, message: "" });

/**
 * A user's oracle flow over HTTP through the legacy generate routes (signed with @cosmjs/amino,
 * POST /txs): the genesis guardian super creates a feed over a service two providers bound, starts
 * it, the providers answer the batch (as a provider daemon would), and the feed's value is their
 * maximum; then the feed is edited and paused. Read back on both families.
 */
describe("e2e: oracle transactions", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain({ accounts: 4, mnemonic: TEST_MNEMONIC });
  const flow = new LegacyTxFlow(() => chain.node().restUrl);
  let creator: AminoWallet, p1: AminoWallet, p3: AminoWallet, other: AminoWallet;
  const ok = (answer: { body: Json }) => expect(answer.body.code, answer.body.raw_log).to.equal(undefined);
  before(async () => {
    // account 0 is the genesis super; accounts 1 and 3 own their dev-genesis bindings, so they may bind as themselves
    [creator, p1, p3, other] = await Promise.all([aminoWallet(0), aminoWallet(1), aminoWallet(3), aminoWallet(2)]);
    const schemas = JSON.stringify({ input: { type: "object" }, output: { type: "object" } });
    ok(
      await flow.send(creator, "/service/definitions", {
        name: "e2e-price",
        description: "",
        tags: [],
        author: creator.address,
        author_description: "",
        schemas,
      }),
    );
    for (const p of [p1, p3]) {
      ok(await flow.send(p, "/service/bindings", serviceBinding("e2e-price", p.address)));
    }
  });
  const feed = async () => (await chain.ok("/extmod/oracle/feeds/e2e-feed")).feed as Json;
  const create = (by: AminoWallet) =>
    flow.send(by, "/oracle/feeds", {
      feed_name: "e2e-feed",
      aggregate_func: "max",
      value_json_path: "price",
      latest_history: "5",
      description: "an e2e price",
      creator: by.address,
      service_name: "e2e-price",
      providers: [p1.address, p3.address],
      input: JSON.stringify({ header: {}, body: { pair: "e2e" } }),
      timeout: "20",
      service_fee_cap: "10uhub",
      repeated_frequency: "30",
      response_threshold: 2,
    });

  it("creates a feed (POST /oracle/feeds), only as a guardian super; it starts paused", async () => {
    const refused = await create(other);
    expect([refused.body.codespace, refused.body.code, refused.body.raw_log]).to.deep.equal(["oracle", 5, `${other.address}: unauthorized owner`]);
    ok(await create(creator));
    const created = await feed();
    expect(created.feed).to.deep.include({ feed_name: "e2e-feed", aggregate_func: "max", creator: creator.address, latest_history: "5" });
    expect(created).to.deep.include({ state: "PAUSED", service_name: "e2e-price", providers: [p1.address, p3.address] });
    // the legacy route answers the amino-registered FeedContext, its state the enum number
    expect((await chain.ok("/oracle/feeds/e2e-feed")).result).to.deep.include({ type: "extmod/oracle/FeedContext" });
    expect((await chain.ok("/oracle/feeds/e2e-feed")).result.value).to.deep.include({ service_name: "e2e-price", state: 1 });
  });

  it("starts the feed (POST /oracle/feeds/{name}/start); the providers' answers give it their maximum", async () => {
    ok(await flow.send(creator, "/oracle/feeds/e2e-feed/start", { creator: creator.address }));
    const running = await feed();
    expect(running.state).to.equal("RUNNING");
    const contextId = running.feed.request_context_id as string;
    const requests = (await chain.ok(`/extmod/service/requests/${contextId}/1`)).requests as Json[];
    expect(requests.map((r) => r.provider)).to.deep.equal([p1.address, p3.address]);
    const answer = (wallet: AminoWallet, request: Json, price: unknown) =>
      flow.send(wallet, "/service/responses", {
        request_id: request.id,
        provider: wallet.address,
        result: OK_RESULT,
        output: JSON.stringify({ header: {}, body: { price } }),
      });
    ok(await answer(p1, requests[0]!, "7.5"));
    expect((await chain.ok("/extmod/oracle/feeds/e2e-feed/values")).feed_values).to.deep.equal([]);
    ok(await answer(p3, requests[1]!, 8));
    const values = (await chain.ok("/extmod/oracle/feeds/e2e-feed/values")).feed_values as Json[];
    expect(values.map((v) => v.data)).to.deep.equal(["8.00000000"]);
    expect(((await chain.ok("/oracle/feeds/e2e-feed/values")).result as Json[]).map((v) => v.data)).to.deep.equal(["8.00000000"]);
    const again = await flow.send(creator, "/oracle/feeds/e2e-feed/start", { creator: creator.address });
    expect([again.body.codespace, again.body.code, again.body.raw_log]).to.deep.equal([
      "oracle",
      9,
      "failed to execute message; message index: 0: e2e-feed: invalid state feed",
    ]);
  });

  it("edits the feed (PUT /oracle/feeds/{name}) and pauses it (POST /oracle/feeds/{name}/pause)", async () => {
    ok(
      await flow.send(
        creator,
        "/oracle/feeds/e2e-feed",
        {
          description: "do-not-modify",
          latest_history: "1",
          creator: creator.address,
          providers: [],
          timeout: "0",
          service_fee_cap: "20uhub",
          repeated_frequency: "40",
          response_threshold: 1,
        },
        "PUT",
      ),
    );
    const edited = await feed();
    expect(edited.feed).to.deep.include({ description: "an e2e price", latest_history: "1" });
    expect(edited).to.deep.include({ repeated_frequency: "40", response_threshold: 1, service_fee_cap: [{ denom: "uhub", amount: "20" }] });
    ok(await flow.send(creator, "/oracle/feeds/e2e-feed/pause", { creator: creator.address }));
    expect((await feed()).state).to.equal("PAUSED");
  });
});
