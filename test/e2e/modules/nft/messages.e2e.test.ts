import { expect } from "chai";
import { aminoWallet, type AminoWallet } from "../../../helpers/aminoWallet.js";
import { TEST_MNEMONIC } from "../../../helpers/devNode.js";
import { LegacyTxFlow } from "../../../helpers/legacyTxFlow.js";
import { useStartedDevChain } from "../../../helpers/startedDevChain.js";

/** An NFT's life through the legacy generate routes (signed with @cosmjs/amino, POST /txs), read back on both families. */
describe("e2e: nft transactions", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain({ accounts: 4, mnemonic: TEST_MNEMONIC });
  const flow = new LegacyTxFlow(() => chain.node().restUrl);
  let issuer: AminoWallet;
  let holder: AminoWallet;
  before(async () => {
    [issuer, holder] = await Promise.all([aminoWallet(1), aminoWallet(2)]);
  });
  const ok = (sent: { body: { code?: number; raw_log?: string } }) => expect(sent.body.code, sent.body.raw_log).to.equal(undefined);

  it("issues a denom and mints an NFT to another account", async () => {
    ok(await flow.send(issuer, "/nft/nfts/denoms/issue", { owner: issuer.address, id: "birds", name: "Birds", schema: "" }));
    ok(
      await flow.send(issuer, "/nft/nfts/mint", {
        owner: issuer.address,
        recipient: holder.address,
        denom_id: "birds",
        id: "robin",
        name: "Robin",
        uri: "ipfs://robin",
        data: "",
      }),
    );
    expect((await chain.ok("/extmod/nft/nfts/birds/robin")).nft).to.deep.equal({
      id: "robin",
      name: "Robin",
      uri: "ipfs://robin",
      data: "",
      owner: holder.address,
    });
    expect((await chain.ok("/nft/nfts/birds/robin")).result.value).to.deep.include({ id: "robin", owner: holder.address });
    expect((await chain.ok("/extmod/nft/collections/birds/supply")).amount).to.equal("1");
  });

  it("refuses an edit by someone who does not own the NFT, with the real code and log", async () => {
    const refused = await flow.send(
      issuer,
      "/nft/nfts/birds/robin",
      { owner: issuer.address, name: "Blackbird", uri: "[do-not-modify]", data: "[do-not-modify]" },
      "PUT",
    );
    expect([refused.body.codespace, refused.body.code]).to.deep.equal(["nft", 8]);
    expect(refused.body.raw_log).to.include(`${issuer.address}: unauthorized address`);
  });

  it("the owner transfers it back and the new owner burns it", async () => {
    const keep = "[do-not-modify]";
    ok(await flow.send(holder, "/nft/nfts/birds/robin/transfer", { owner: holder.address, recipient: issuer.address, name: keep, uri: keep, data: keep }));
    expect((await chain.ok("/extmod/nft/nfts/birds/robin")).nft.owner).to.equal(issuer.address);
    ok(await flow.send(issuer, "/nft/nfts/birds/robin/burn", { owner: issuer.address }));
    expect((await chain.get("/extmod/nft/nfts/birds/robin")).status).to.equal(404);
    expect((await chain.ok("/extmod/nft/collections/birds/supply")).amount).to.equal("0");
  });
});
