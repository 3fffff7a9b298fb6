import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { bech32 } from "bech32";
import { grpcNotFound as notFound, useStartedDevChain } from "../../../helpers/startedDevChain.js";

const utf8 = (text: string) => new TextEncoder().encode(text);
/** Module and pool account addresses: the first 20 bytes of SHA-256 of the name. */
const derivedAddress = (name: string) => bech32.encode("hub", bech32.toWords(sha256(utf8(name)).subarray(0, 20)));

/** The coinswap routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: coinswap routes", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain();
  const { get } = chain;
  let a: string[];

  before(() => {
    a = chain.accounts();
  });

  it("derives the liquidity of a token's pool from its reserve account and the pool coin's supply", async () => {
    const r = await get("/extmod/coinswap/liquidities/ucat");
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({
      standard: { denom: "uhub", amount: "1000000000" },
      token: { denom: "ucat", amount: "5000000000" },
      liquidity: { denom: "swap/ucat", amount: "1000000000" },
      fee: "0.003000000000000000",
    });
  });

  it("holds the reserves in the account derived from swap/<denom>, and the liquidity with the provider", async () => {
    expect((await get(`/core/bank/v1beta1/balances/${derivedAddress("swap/ucat")}`)).body.balances).to.deep.equal([
      { denom: "ucat", amount: "5000000000" },
      { denom: "uhub", amount: "1000000000" },
    ]);
    const provider = (await get(`/core/bank/v1beta1/balances/${a[0]}`)).body.balances as Array<{ denom: string; amount: string }>;
    expect(provider.find((c) => c.denom === "swap/ucat")).to.deep.equal({ denom: "swap/ucat", amount: "1000000000" });
  });

  it("answers 404 for the standard denom and for a token without a pool", async () => {
    const standard = await get("/extmod/coinswap/liquidities/uhub");
    expect(standard.status).to.equal(404);
    expect(standard.body).to.deep.equal(notFound("swap/uhub: reserve pool not exists"));
    expect((await get("/extmod/coinswap/liquidities/mdog")).body).to.deep.equal(notFound("swap/mdog: reserve pool not exists"));
  });

  it('shows its fee in the x/params subspace "coinswap"', async () => {
    expect((await get("/core/params/v1beta1/params?subspace=coinswap&key=Fee")).body).to.deep.equal({
      param: { subspace: "coinswap", key: "Fee", value: '"0.003000000000000000"' },
    });
  });
});
