import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { bech32 } from "bech32";
import { grpcBadRequest as badRequest, grpcNotFound as notFound, useStartedDevChain } from "../../helpers/startedDevChain.js";

const utf8 = (text: string) => new TextEncoder().encode(text);
const b64 = (text: string) => Buffer.from(text).toString("base64");
/** Module and pool account addresses: the first 20 bytes of SHA-256 of the name. */
const derivedAddress = (name: string) => bech32.encode("hub", bech32.toWords(sha256(utf8(name)).subarray(0, 20)));

/**
 * The token, htlc, coinswap and nft gateway routes over HTTP against
 * `chain-rest start`, with the values of the development genesis.
 */
describe("e2e: token, htlc, coinswap and nft routes", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain();
  const { get } = chain;
  let a: string[];

  before(() => {
    a = chain.accounts();
  });


  describe("token", () => {
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

    it("lists every token as an Any under the key \"Tokens\", by symbol", async () => {
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
        badRequest("invalid symbol: Gold, only accepts english lowercase letters and numbers, length [3, 64], and begin with an english letter, regexp: ^[a-z][a-z0-9]{2,63}$: invalid standard denom"),
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

    it("shows its params in the x/params subspace \"token\" as amino JSON", async () => {
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

  describe("htlc", () => {
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

  describe("coinswap", () => {
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

    it("shows its fee in the x/params subspace \"coinswap\"", async () => {
      expect((await get("/core/params/v1beta1/params?subspace=coinswap&key=Fee")).body).to.deep.equal({
        param: { subspace: "coinswap", key: "Fee", value: '"0.003000000000000000"' },
      });
    });
  });

  describe("nft", () => {
    const kittySchema = JSON.stringify({ type: "object", properties: { color: { type: "string" } } });
    const badges = () => ({ id: "devbadges", name: "Dev Badges", schema: "", creator: a[1] });
    const kitties = () => ({ id: "devkitties", name: "Dev Kitties", schema: kittySchema, creator: a[0] });
    const kitty = (n: number, name: string, color: string, owner: string) => ({
      id: `kitty${n}`,
      name,
      uri: `https://example.org/devkitties/${n}.json`,
      data: JSON.stringify({ color }),
      owner,
    });
    const k1 = () => kitty(1, "Ginger", "orange", a[0]!);
    const k2 = () => kitty(2, "Smokey", "grey", a[1]!);
    const k3 = () => kitty(3, "Snowball", "white", a[0]!);

    it("lists the denoms, and pages them by key and by offset", async () => {
      expect((await get("/extmod/nft/denoms")).body).to.deep.equal({ denoms: [badges(), kitties()], pagination: { next_key: null, total: "2" } });
      const first = await get("/extmod/nft/denoms?pagination.limit=1");
      expect(first.body).to.deep.equal({ denoms: [badges()], pagination: { next_key: b64("devkitties"), total: "0" } });
      const second = await get(`/extmod/nft/denoms?pagination.limit=1&pagination.key=${encodeURIComponent(first.body.pagination.next_key)}`);
      expect(second.body).to.deep.equal({ denoms: [kitties()], pagination: { next_key: null, total: "0" } });
      const byOffset = await get("/extmod/nft/denoms?pagination.limit=1&pagination.offset=1&pagination.count_total=true");
      expect(byOffset.body).to.deep.equal({ denoms: [kitties()], pagination: { next_key: null, total: "2" } });
    });

    it("serves one denom, and 404 for an unknown one", async () => {
      expect((await get("/extmod/nft/denoms/devkitties")).body).to.deep.equal({ denom: kitties() });
      const missing = await get("/extmod/nft/denoms/nothing");
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal(notFound("denom ID nothing not exists: invalid denom"));
    });

    it("serves a collection with its NFTs, paged by key and by offset", async () => {
      expect((await get("/extmod/nft/collections/devkitties")).body).to.deep.equal({
        collection: { denom: kitties(), nfts: [k1(), k2(), k3()] },
        pagination: { next_key: null, total: "3" },
      });
      const first = await get("/extmod/nft/collections/devkitties?pagination.limit=1");
      expect(first.body).to.deep.equal({ collection: { denom: kitties(), nfts: [k1()] }, pagination: { next_key: b64("kitty2"), total: "0" } });
      const second = await get(`/extmod/nft/collections/devkitties?pagination.limit=1&pagination.key=${encodeURIComponent(first.body.pagination.next_key)}`);
      expect(second.body.collection.nfts).to.deep.equal([k2()]);
      expect(second.body.pagination).to.deep.equal({ next_key: b64("kitty3"), total: "0" });
      const last = await get("/extmod/nft/collections/devkitties?pagination.limit=1&pagination.offset=2&pagination.count_total=true");
      expect(last.body).to.deep.equal({ collection: { denom: kitties(), nfts: [k3()] }, pagination: { next_key: null, total: "3" } });
      expect((await get("/extmod/nft/collections/devbadges")).body).to.deep.equal({ collection: { denom: badges(), nfts: [] }, pagination: { next_key: null, total: "0" } });
      const missing = await get("/extmod/nft/collections/nothing");
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal(notFound("denomID nothing not existed : invalid denom"));
    });

    it("counts the supply of a denom, in total and of one owner", async () => {
      expect((await get("/extmod/nft/collections/devkitties/supply")).body).to.deep.equal({ amount: "3" });
      expect((await get(`/extmod/nft/collections/devkitties/supply?owner=${a[0]}`)).body).to.deep.equal({ amount: "2" });
      expect((await get(`/extmod/nft/collections/devkitties/supply?owner=${a[1]}`)).body).to.deep.equal({ amount: "1" });
      expect((await get(`/extmod/nft/collections/devkitties/supply?owner=${a[5]}`)).body).to.deep.equal({ amount: "0" });
      expect((await get("/extmod/nft/collections/devbadges/supply")).body).to.deep.equal({ amount: "0" });
      expect((await get("/extmod/nft/collections/nothing/supply")).body).to.deep.equal({ amount: "0" });
      const bad = await get("/extmod/nft/collections/devkitties/supply?owner=hub1bad");
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal(badRequest("invalid owner address hub1bad"));
    });

    it("lists the NFTs of an owner grouped by denom, optionally of one denom", async () => {
      expect((await get(`/extmod/nft/nfts?owner=${a[0]}`)).body).to.deep.equal({
        owner: { address: a[0], id_collections: [{ denom_id: "devkitties", token_ids: ["kitty1", "kitty3"] }] },
        pagination: { next_key: null, total: "2" },
      });
      expect((await get(`/extmod/nft/nfts?owner=${a[1]}&denom_id=devkitties`)).body).to.deep.equal({
        owner: { address: a[1], id_collections: [{ denom_id: "devkitties", token_ids: ["kitty2"] }] },
        pagination: { next_key: null, total: "1" },
      });
      expect((await get(`/extmod/nft/nfts?owner=${a[0]}&denom_id=devbadges`)).body).to.deep.equal({
        owner: { address: a[0], id_collections: [] },
        pagination: { next_key: null, total: "0" },
      });
    });

    it("pages the NFTs of an owner by key and by offset", async () => {
      const first = await get(`/extmod/nft/nfts?owner=${a[0]}&pagination.limit=1`);
      expect(first.body).to.deep.equal({
        owner: { address: a[0], id_collections: [{ denom_id: "devkitties", token_ids: ["kitty1"] }] },
        pagination: { next_key: b64("devkitties/kitty3"), total: "0" },
      });
      const second = await get(`/extmod/nft/nfts?owner=${a[0]}&pagination.limit=1&pagination.key=${encodeURIComponent(first.body.pagination.next_key)}`);
      expect(second.body).to.deep.equal({
        owner: { address: a[0], id_collections: [{ denom_id: "devkitties", token_ids: ["kitty3"] }] },
        pagination: { next_key: null, total: "0" },
      });
      const filtered = await get(`/extmod/nft/nfts?owner=${a[0]}&denom_id=devkitties&pagination.limit=1`);
      expect(filtered.body.pagination).to.deep.equal({ next_key: b64("kitty3"), total: "0" });
      const byOffset = await get(`/extmod/nft/nfts?owner=${a[0]}&pagination.limit=1&pagination.offset=1&pagination.count_total=true`);
      expect(byOffset.body).to.deep.equal({
        owner: { address: a[0], id_collections: [{ denom_id: "devkitties", token_ids: ["kitty3"] }] },
        pagination: { next_key: null, total: "2" },
      });
    });

    it("requires a valid owner for the NFTs of an owner", async () => {
      const missing = await get("/extmod/nft/nfts");
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal(badRequest("invalid owner address "));
      expect((await get("/extmod/nft/nfts?owner=cosmos1xyz")).body).to.deep.equal(badRequest("invalid owner address cosmos1xyz"));
    });

    it("serves one NFT, and 404 for an unknown one", async () => {
      expect((await get("/extmod/nft/nfts/devkitties/kitty2")).body).to.deep.equal({ nft: k2() });
      const missing = await get("/extmod/nft/nfts/devkitties/kitty9");
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal(notFound("invalid NFT kitty9 from collection devkitties: unknown nft"));
      expect((await get("/extmod/nft/nfts/nothing/kitty1")).status).to.equal(404);
    });
  });
});
