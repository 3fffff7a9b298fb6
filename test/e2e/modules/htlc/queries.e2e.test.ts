import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { bech32 } from "bech32";
import { grpcBadRequest as badRequest, grpcNotFound as notFound, useStartedDevChain } from "../../../helpers/startedDevChain.js";

const utf8 = (text: string) => new TextEncoder().encode(text);
/** Module and pool account addresses: the first 20 bytes of SHA-256 of the name. */
const derivedAddress = (name: string) => bech32.encode("hub", bech32.toWords(sha256(utf8(name)).subarray(0, 20)));

/** The htlc routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: htlc routes", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain();
  const { get } = chain;
  let a: string[];

  before(() => {
    a = chain.accounts();
  });

  const secret = sha256(utf8("chain-rest development htlc"));
  const hashLock = bytesToHex(sha256(secret));

  it("serves the open HTLC of the genesis by its hex hash lock, in either case", async () => {
    const expected = {
      htlc: {
        sender: a[2],
        to: a[3],
        receiver_on_other_chain: "0x7d0a3e9c2b51f4a86e0d3c97b1a25f6e48c0d913",
        amount: [{ denom: "uhub", amount: "1000000" }],
        secret: "",
        timestamp: "0",
        expiration_height: "25480",
        state: "HTLC_STATE_OPEN",
      },
    };
    const r = await get(`/extmod/htlc/htlcs/${hashLock}`);
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal(expected);
    expect((await get(`/extmod/htlc/htlcs/${hashLock.toUpperCase()}`)).body).to.deep.equal(expected);
  });

  it("keeps the locked amount in the htlc module account", async () => {
    expect((await get(`/core/bank/v1beta1/balances/${derivedAddress("htlc")}`)).body.balances).to.deep.equal([{ denom: "uhub", amount: "1000000" }]);
  });

  it("answers 400 for a hash lock that is not hex and 404 for an unknown one", async () => {
    const bad = await get("/extmod/htlc/htlcs/xyz1");
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.equal(badRequest("invalid hash lock xyz1"));
    const odd = await get("/extmod/htlc/htlcs/abc");
    expect(odd.body).to.deep.equal(badRequest("invalid hash lock abc"));
    const unknown = "00".repeat(32);
    const missing = await get(`/extmod/htlc/htlcs/${unknown}`);
    expect(missing.status).to.equal(404);
    expect(missing.body).to.deep.equal(notFound(`HTLC ${unknown} not found`));
  });
});
