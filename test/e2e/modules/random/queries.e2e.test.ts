import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import type { HttpAnswer } from "../../../helpers/http.js";
import { grpcBadRequest as badRequest, grpcNotFound as notFound, useStartedDevChain } from "../../../helpers/startedDevChain.js";

const utf8 = (text: string) => new TextEncoder().encode(text);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const be = (value: bigint, bytes: number) => value.toString(16).padStart(bytes * 2, "0");

/** The random routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: random routes", function () {
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

  /** GenerateRequestID: SHA-256 of the request height (8 bytes, big-endian) and the consumer's address text. */
  const randomId = (consumer: string) => hex(sha256(Buffer.concat([Buffer.from(be(1n, 8), "hex"), Buffer.from(consumer)])));
  const pending = (account: number, label: string) => ({
    height: "1",
    consumer: a[account],
    tx_hash: hex(sha256(utf8(`devnet-1/request_random/${label}`))),
    oracle: false,
    service_fee_cap: [],
    service_context_id: "",
  });

  it("serves a produced random number by request id in either case; 404 for an unknown id, 400 for one that is not hex", async () => {
    const r = await get(`/extmod/random/randoms/${randomId(a[7]!)}`);
    expect(r.status, r.text).to.equal(200);
    expect(r.body.random.request_tx_hash).to.equal(hex(sha256(utf8("devnet-1/request_random/produced"))));
    expect(r.body.random.height).to.equal("1");
    expect(r.body.random.value).to.match(/^0\.\d{20}$/);
    expect((await get(`/extmod/random/randoms/${randomId(a[7]!).toUpperCase()}`)).body).to.deep.equal(r.body);
    expectAnswer(await get(`/extmod/random/randoms/${randomId(a[8]!)}`), 404, notFound(`random ${randomId(a[8]!)} not found`));
    expectAnswer(await get("/extmod/random/randoms/xyz"), 400, badRequest("invalid request id"));
  });

  it("serves the queue of pending requests: all of them, or those due at one height", async () => {
    expectAnswer(await get("/extmod/random/queue"), 200, { requests: [pending(8, "pending-1"), pending(9, "pending-2")] });
    expectAnswer(await get("/extmod/random/queue?height=0"), 200, { requests: [pending(8, "pending-1"), pending(9, "pending-2")] });
    expectAnswer(await get("/extmod/random/queue?height=201"), 200, { requests: [pending(9, "pending-2")] });
    expectAnswer(await get("/extmod/random/queue?height=5"), 200, { requests: [] });
    expectAnswer(await get("/extmod/random/queue?height=-1"), 400, badRequest("invalid height"));
    expect((await get("/extmod/random/queue?height=soon")).status).to.equal(400);
  });
});
