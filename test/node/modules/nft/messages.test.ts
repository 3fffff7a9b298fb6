import { expect } from "chai";
import { attributesOf, NodeTxKit } from "../../../helpers/nodeTxKit.js";

type Json = Record<string, any>;

/** The nft Msgs in blocks of an in-process dev node: a denom issued, an NFT minted, edited, handed over and burned. */
describe("nft Msgs", function () {
  this.timeout(60_000);
  let kit: NodeTxKit;
  before(async () => {
    kit = await NodeTxKit.open(4);
  });
  after(() => kit.close());

  const msg = (name: string, value: Json) => ({ typeUrl: `/extmod.nft.${name}`, value });
  const nft = async (tokenId: string) => {
    const answer = await kit.query("extmod.nft.Query.NFT", { denom_id: "birds", token_id: tokenId });
    return answer.code === 0 ? (answer.body.nft as Json) : undefined;
  };
  const supply = async () => (await kit.query("extmod.nft.Query.Supply", { denom_id: "birds" })).body.amount;

  it("issues a denom; its id and its name are each taken once", async () => {
    const issued = await kit.deliver(1, [msg("MsgIssueDenom", { id: "birds", name: "Birds", schema: "{}", sender: kit.addresses[1] })]);
    expect(issued.code, issued.log).to.equal(0);
    expect(attributesOf(issued.events, "issue_denom")).to.deep.equal([{ denom_id: "birds", denom_name: "Birds", creator: kit.addresses[1] }]);
    expect((await kit.query("extmod.nft.Query.Denom", { denom_id: "birds" })).body.denom).to.deep.equal({
      id: "birds",
      name: "Birds",
      schema: "{}",
      creator: kit.addresses[1],
    });
    const sameName = await kit.deliver(2, [msg("MsgIssueDenom", { id: "moreBirds".toLowerCase(), name: "Birds", schema: "", sender: kit.addresses[2] })]);
    expect([sameName.codespace, sameName.code, sameName.log]).to.deep.equal([
      "nft",
      9,
      "failed to execute message; message index: 0: denomName Birds has already exists: invalid denom",
    ]);
  });

  it("mints into the denom (any account may), and refuses an id taken or malformed", async () => {
    const minted = await kit.deliver(2, [
      msg("MsgMintNFT", {
        id: "robin",
        denom_id: "birds",
        name: "Robin",
        uri: "ipfs://robin",
        data: "red",
        sender: kit.addresses[2],
        recipient: kit.addresses[3],
      }),
    ]);
    expect(minted.code, minted.log).to.equal(0);
    expect(await nft("robin")).to.deep.equal({ id: "robin", name: "Robin", uri: "ipfs://robin", data: "red", owner: kit.addresses[3] });
    expect(await supply()).to.equal("1");
    const again = await kit.deliver(2, [
      msg("MsgMintNFT", { id: "robin", denom_id: "birds", name: "", uri: "", data: "", sender: kit.addresses[2], recipient: kit.addresses[2] }),
    ]);
    expect([again.codespace, again.code]).to.deep.equal(["nft", 5]);
    const badId = await kit.deliver(2, [
      msg("MsgMintNFT", { id: "R1", denom_id: "birds", name: "", uri: "", data: "", sender: kit.addresses[2], recipient: kit.addresses[2] }),
    ]);
    expect(badId.log).to.equal("the length of nft id(R1) only accepts value [3, 64]: invalid nft id");
  });

  it("lets only the owner edit it: [do-not-modify] keeps a field, an empty value clears it", async () => {
    const stranger = await kit.deliver(2, [msg("MsgEditNFT", { id: "robin", denom_id: "birds", name: "x", uri: "", data: "", sender: kit.addresses[2] })]);
    expect([stranger.codespace, stranger.code, stranger.log]).to.deep.equal([
      "nft",
      8,
      `failed to execute message; message index: 0: ${kit.addresses[2]}: unauthorized address`,
    ]);
    const edited = await kit.deliver(3, [
      msg("MsgEditNFT", { id: "robin", denom_id: "birds", name: "[do-not-modify]", uri: "ipfs://robin2", data: "", sender: kit.addresses[3] }),
    ]);
    expect(edited.code, edited.log).to.equal(0);
    expect(await nft("robin")).to.deep.equal({ id: "robin", name: "Robin", uri: "ipfs://robin2", data: "", owner: kit.addresses[3] });
  });

  it("transfers it (the owner index follows) and burns it (the supply follows)", async () => {
    const keep = "[do-not-modify]";
    const moved = await kit.deliver(3, [
      msg("MsgTransferNFT", { id: "robin", denom_id: "birds", name: keep, uri: keep, data: keep, sender: kit.addresses[3], recipient: kit.addresses[1] }),
    ]);
    expect(moved.code, moved.log).to.equal(0);
    expect(((await kit.query("extmod.nft.Query.Owner", { owner: kit.addresses[1], denom_id: "birds" })).body.owner as Json).id_collections).to.deep.equal([
      { denom_id: "birds", token_ids: ["robin"] },
    ]);
    const missing = await kit.deliver(1, [msg("MsgBurnNFT", { id: "wren", denom_id: "birds", sender: kit.addresses[1] })]);
    expect([missing.codespace, missing.code, missing.log]).to.deep.equal([
      "nft",
      3,
      "failed to execute message; message index: 0: not found NFT: birds: unknown nft collection",
    ]);
    const burned = await kit.deliver(1, [msg("MsgBurnNFT", { id: "robin", denom_id: "birds", sender: kit.addresses[1] })]);
    expect(burned.code, burned.log).to.equal(0);
    expect(await nft("robin")).to.equal(undefined);
    expect(await supply()).to.equal("0");
  });
});
