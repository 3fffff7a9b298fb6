import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { bech32 } from "bech32";
import { grpcBadRequest as badRequest, grpcNotFound as notFound, useStartedDevChain } from "../../../helpers/startedDevChain.js";

const utf8 = (text: string) => new TextEncoder().encode(text);
const b64 = (text: string) => Buffer.from(text).toString("base64");
/** Module and pool account addresses: the first 20 bytes of SHA-256 of the name. */
const derivedAddress = (name: string) => bech32.encode("hub", bech32.toWords(sha256(utf8(name)).subarray(0, 20)));

/** The token routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: token routes", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain();
  const { get } = chain;
  let a: string[];

  before(() => {
    a = chain.accounts();
  });

  const cat = () => ({
    "@type": "/extmod.token.Token",
    symbol: "cat",
    name: "Cat Coin",
    scale: 6,
    min_unit: "ucat",
    initial_supply: "1000000",
    max_supply: "2000000",
    mintable: true,
    owner: a[0],
  });
  const dog = () => ({
    "@type": "/extmod.token.Token",
    symbol: "dog",
    name: "Dog Token",
    scale: 3,
    min_unit: "mdog",
    initial_supply: "500000",
    max_supply: "500000",
    mintable: false,
    owner: a[1],
  });
  const hub = () => ({
    "@type": "/extmod.token.Token",
    symbol: "hub",
    name: "Hub staking token",
    scale: 6,
    min_unit: "uhub",
    initial_supply: "2000000000",
    max_supply: "10000000000",
    mintable: true,
    owner: derivedAddress("token"),
  });

  it('lists every token as an Any under the key "Tokens", by symbol', async () => {
    const r = await get("/extmod/token/tokens");
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ Tokens: [cat(), dog(), hub()], pagination: { next_key: null, total: "3" } });
  });

  it("pages the token list by key and by offset", async () => {
    const first = await get("/extmod/token/tokens?pagination.limit=1");
    expect(first.body).to.deep.equal({ Tokens: [cat()], pagination: { next_key: b64("dog"), total: "0" } });
    const second = await get(`/extmod/token/tokens?pagination.limit=1&pagination.key=${encodeURIComponent(first.body.pagination.next_key)}`);
    expect(second.body).to.deep.equal({ Tokens: [dog()], pagination: { next_key: b64("hub"), total: "0" } });
    const third = await get(`/extmod/token/tokens?pagination.limit=1&pagination.key=${encodeURIComponent(second.body.pagination.next_key)}`);
    expect(third.body).to.deep.equal({ Tokens: [hub()], pagination: { next_key: null, total: "0" } });
    const byOffset = await get("/extmod/token/tokens?pagination.limit=1&pagination.offset=1&pagination.count_total=true");
    expect(byOffset.body).to.deep.equal({ Tokens: [dog()], pagination: { next_key: b64("hub"), total: "3" } });
  });

  it("filters the tokens by owner", async () => {
    expect((await get(`/extmod/token/tokens?owner=${a[0]}`)).body).to.deep.equal({ Tokens: [cat()], pagination: { next_key: null, total: "1" } });
    expect((await get(`/extmod/token/tokens?owner=${a[1]}`)).body).to.deep.equal({ Tokens: [dog()], pagination: { next_key: null, total: "1" } });
    expect((await get(`/extmod/token/tokens?owner=${derivedAddress("token")}`)).body.Tokens).to.deep.equal([hub()]);
    expect((await get(`/extmod/token/tokens?owner=${a[5]}`)).body).to.deep.equal({ Tokens: [], pagination: { next_key: null, total: "0" } });
    const bad = await get("/extmod/token/tokens?owner=hub1notanaddress");
    expect(bad.status).to.equal(400);
    expect(bad.body.code).to.equal(3);
    expect(bad.body.message).to.match(/^rpc error: code = InvalidArgument desc = invalid owner address \(.+\): invalid request$/);
  });

  it("finds a token by symbol first, then by min unit", async () => {
    expect((await get("/extmod/token/tokens/cat")).body).to.deep.equal({ Token: cat() });
    expect((await get("/extmod/token/tokens/mdog")).body).to.deep.equal({ Token: dog() });
    expect((await get("/extmod/token/tokens/uhub")).body).to.deep.equal({ Token: hub() });
    const missing = await get("/extmod/token/tokens/zebra");
    expect(missing.status).to.equal(404);
    expect(missing.body).to.deep.equal(notFound("token zebra not found"));
  });

  it("computes the issue and mint fees of a symbol from the params", async () => {
    // "gold": factor round2((ln 4 / ln 3)^4) = 2.54; 60000 / 2.54 = 23622 hub; mint 10% = 2362 hub.
    expect((await get("/extmod/token/tokens/gold/fees")).body).to.deep.equal({
      exist: false,
      issue_fee: { denom: "uhub", amount: "23622000000" },
      mint_fee: { denom: "uhub", amount: "2362000000" },
    });
    // A three-letter symbol pays the whole base fee; "cat" exists.
    expect((await get("/extmod/token/tokens/cat/fees")).body).to.deep.equal({
      exist: true,
      issue_fee: { denom: "uhub", amount: "60000000000" },
      mint_fee: { denom: "uhub", amount: "6000000000" },
    });
    // "exist" also holds for a min unit, as the real HasToken.
    const minUnit = (await get("/extmod/token/tokens/ucat/fees")).body;
    expect(minUnit.exist).to.equal(true);
    expect(minUnit.issue_fee).to.deep.equal({ denom: "uhub", amount: "23622000000" });
    // ten letters: factor 19.30, 60000 / 19.30 = 3108.8 → 3108 hub.
    expect((await get("/extmod/token/tokens/abcdefghij/fees")).body.issue_fee).to.deep.equal({ denom: "uhub", amount: "3108000000" });
  });

  it("rejects a fee query for an invalid symbol with the real validation message", async () => {
    const upper = await get("/extmod/token/tokens/Gold/fees");
    expect(upper.status).to.equal(400);
    expect(upper.body).to.deep.equal(
      badRequest(
        "invalid symbol: Gold, only accepts english lowercase letters and numbers, length [3, 64], and begin with an english letter, regexp: ^[a-z][a-z0-9]{2,63}$: invalid standard denom",
      ),
    );
    const keyword = await get("/extmod/token/tokens/ibcgold/fees");
    expect(keyword.status).to.equal(400);
    expect(keyword.body).to.deep.equal(badRequest("invalid token: ibcgold, can not begin with keyword: (peg|ibc|swap): invalid standard denom"));
  });

  it("serves the params and the burned coins", async () => {
    expect((await get("/extmod/token/params")).body).to.deep.equal({
      params: { token_tax_rate: "0.400000000000000000", issue_token_base_fee: { denom: "hub", amount: "60000" }, mint_token_fee_ratio: "0.100000000000000000" },
      res: null,
    });
    expect((await get("/extmod/token/total_burn")).body).to.deep.equal({ burned_coins: [{ denom: "ucat", amount: "250000000" }] });
  });

  it('shows its params in the x/params subspace "token" as amino JSON', async () => {
    const param = async (key: string) => (await get(`/core/params/v1beta1/params?subspace=token&key=${key}`)).body.param;
    expect(await param("TokenTaxRate")).to.deep.equal({ subspace: "token", key: "TokenTaxRate", value: '"0.400000000000000000"' });
    expect(await param("IssueTokenBaseFee")).to.deep.equal({ subspace: "token", key: "IssueTokenBaseFee", value: '{"denom":"hub","amount":"60000"}' });
    expect(await param("MintTokenFeeRatio")).to.deep.equal({ subspace: "token", key: "MintTokenFeeRatio", value: '"0.100000000000000000"' });
  });

  it("funded the issued supply to the owners, less what was burned and pooled", async () => {
    expect((await get(`/core/bank/v1beta1/balances/${a[0]}/ucat`)).body).to.deep.equal({ balance: { denom: "ucat", amount: "994750000000" } });
    expect((await get(`/core/bank/v1beta1/balances/${a[1]}/mdog`)).body).to.deep.equal({ balance: { denom: "mdog", amount: "500000000" } });
  });
});
