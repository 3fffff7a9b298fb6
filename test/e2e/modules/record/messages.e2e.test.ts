import { expect } from "chai";
import { aminoWallet } from "../../../helpers/aminoWallet.js";
import { TEST_MNEMONIC } from "../../../helpers/devNode.js";
import { LegacyTxFlow } from "../../../helpers/legacyTxFlow.js";
import { useStartedDevChain } from "../../../helpers/startedDevChain.js";

/** A record created with POST /record/records (signed with @cosmjs/amino, POST /txs), read back by the id its event gives. */
describe("e2e: record transactions", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain({ accounts: 4, mnemonic: TEST_MNEMONIC });
  const flow = new LegacyTxFlow(() => chain.node().restUrl);
  const content = { digest: "9f86d081884c7d65", digest_algo: "sha256", uri: "ipfs://doc", meta: "a contract" };

  it("creates a record; the gateway and the legacy route answer it under the id of its create_record event, with the tx hash", async () => {
    const creator = await aminoWallet(1);
    const sent = await flow.send(creator, "/record/records", { creator: creator.address, contents: [content] });
    expect(sent.body.code, sent.body.raw_log).to.equal(undefined);
    const event = (sent.body.logs[0].events as Array<{ type: string; attributes: Array<{ key: string; value: string }> }>).find(
      (e) => e.type === "create_record",
    )!;
    const id = event.attributes.find((a) => a.key === "record_id")!.value;
    const record = (await chain.ok(`/extmod/record/records/${id}`)).record;
    expect(record).to.deep.equal({ tx_hash: sent.body.txhash, contents: [content], creator: creator.address });
    expect((await chain.ok(`/record/records/${id}`)).result).to.deep.include({ tx_hash: sent.body.txhash, creator: creator.address });
  });

  it("refuses a record without contents on broadcast with the real code and log", async () => {
    const creator = await aminoWallet(2);
    const sent = await flow.send(creator, "/record/records", { creator: creator.address, contents: [] });
    expect([sent.body.codespace, sent.body.code, sent.body.raw_log]).to.deep.equal(["sdk", 18, "contents missing: invalid request"]);
  });
});
