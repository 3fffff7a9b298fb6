import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { attributesOf, NodeTxKit } from "../../../helpers/nodeTxKit.js";
import { recordId } from "../../../../src/node/modules/record/keys.js";

type Json = Record<string, any>;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** MsgCreateRecord: the record keeps the tx hash; its id follows the chain-wide record counter (genesis records count). */
describe("record Msgs", function () {
  this.timeout(60_000);
  let kit: NodeTxKit;
  before(async () => {
    kit = await NodeTxKit.open(4);
  });
  after(() => kit.close());

  const content = { digest: "a1b2", digest_algo: "sha256", uri: "https://example.org/doc", meta: "v1" };
  const create = (from: number, contents: Json[] = [content]) => ({
    typeUrl: "/extmod.record.MsgCreateRecord",
    value: { contents, creator: kit.addresses[from] },
  });

  it("creates a record under SHA-256(record bytes | counter), with the transaction's hash, and answers its id", async () => {
    const created = await kit.deliver(1, [create(1)]);
    expect(created.code, created.log).to.equal(0);
    const [event] = attributesOf(created.events, "create_record");
    expect(event!.creator).to.equal(kit.addresses[1]);
    const stored = (await kit.query("extmod.record.Query.Record", { record_id: event!.record_id })).body.record as Json;
    expect(stored.creator).to.equal(kit.addresses[1]);
    expect(stored.contents).to.deep.equal([content]);
    // the hash of the transaction's bytes as the block holds them
    const txBytes = Buffer.from((await kit.node.committed(created.height))!.block.block.data.txs![0]!, "base64");
    expect(stored.tx_hash).to.equal(hex(sha256(txBytes)).toUpperCase());
    // the dev genesis holds one record, so this is the second: counter 1
    const recordBytes = kit.node.codec
      .type("extmod.record.Record")
      .encode({ tx_hash: stored.tx_hash, contents: [content], creator: kit.addresses[1] })
      .finish();
    expect(event!.record_id).to.equal(hex(recordId(recordBytes, 1)));
  });

  it("refuses a record without contents, or a content without digest or algorithm", async () => {
    const none = await kit.deliver(2, [create(2, [])]);
    expect([none.codespace, none.code, none.log]).to.deep.equal(["sdk", 18, "contents missing: invalid request"]);
    const noAlgo = await kit.deliver(2, [create(2, [content, { digest: "ff", digest_algo: "" }])]);
    expect(noAlgo.log).to.equal("content[1] digest algo missing: invalid request");
  });
});
