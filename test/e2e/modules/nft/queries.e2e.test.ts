import { expect } from "chai";
import { grpcBadRequest as badRequest, grpcNotFound as notFound, useStartedDevChain } from "../../../helpers/startedDevChain.js";

const b64 = (text: string) => Buffer.from(text).toString("base64");

/** The nft routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: nft routes", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain();
  const { get } = chain;
  let a: string[];

  before(() => {
    a = chain.accounts();
  });

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
    expect((await get("/extmod/nft/collections/devbadges")).body).to.deep.equal({
      collection: { denom: badges(), nfts: [] },
      pagination: { next_key: null, total: "0" },
    });
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
