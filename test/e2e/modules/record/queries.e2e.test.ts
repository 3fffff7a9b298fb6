import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { Codec } from "../../../../src/codec/codec.js";
import type { HttpAnswer } from "../../../helpers/http.js";
import { grpcBadRequest as badRequest, grpcNotFound as notFound, useStartedDevChain } from "../../../helpers/startedDevChain.js";

const utf8 = (text: string) => new TextEncoder().encode(text);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** The record routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: record routes", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain();
  const { get } = chain;
  let a: string[];

  before(() => {
    a = chain.accounts();
  });

  const expectAnswer = (r: HttpAnswer, status: number, body: unknown) => {
    expect(r.body, r.text).to.deep.equal(body);
    expect(r.status).to.equal(status);
  };

  /** Every item of a list route, one per page: in key mode (next_key) and in offset mode (count_total). */

  const record = () => ({
    tx_hash: hex(sha256(utf8("devnet-1/create_record/0"))).toUpperCase(),
    contents: [
      {
        digest: hex(sha256(utf8("the devnet-1 development chain"))),
        digest_algo: "sha256",
        uri: "https://example.com/dev-record.txt",
        meta: "a sample record of the development genesis",
      },
    ],
    creator: a[0],
  });
  /** The record id: SHA-256 of the record's protobuf bytes and the 4-byte intra-block counter (0 for the first). */
  const recordId = () => {
    const bytes = new Codec().type("extmod.record.Record").encode(record()).finish();
    return hex(sha256(Buffer.concat([bytes, Buffer.alloc(4)])));
  };

  it("serves a record by its id in either case; 404 for an unknown id, 400 for one that is not hex", async () => {
    expectAnswer(await get(`/extmod/record/records/${recordId()}`), 200, { record: record() });
    expectAnswer(await get(`/extmod/record/records/${recordId().toUpperCase()}`), 200, { record: record() });
    expectAnswer(await get(`/extmod/record/records/${"ab".repeat(32)}`), 404, notFound(`record ${"ab".repeat(32)} not found`));
    expectAnswer(await get("/extmod/record/records/xyz"), 400, badRequest("invalid record ID xyz"));
  });
});
