import { expect } from "chai";
import { attributesOf, NodeTxKit } from "../../../helpers/nodeTxKit.js";

type Json = Record<string, any>;
const MAX_UINT64 = "18446744073709551615";

/**
 * The token Msgs in blocks of an in-process dev node. The dev chain's base fee is 60000 of its
 * native token "hub" (scale 6, min unit uhub), the tax rate 0.4 and the mint fee ratio 0.1, so a
 * 3-letter symbol costs 60000 hub to issue and 6000 hub to mint (irismod v1.3.1 keeper/fees.go).
 */
describe("token Msgs", function () {
  this.timeout(60_000);
  let kit: NodeTxKit;
  before(async () => {
    kit = await NodeTxKit.open(4);
  });
  after(() => kit.close());

  const msg = (name: string, value: Json) => ({ typeUrl: `/extmod.token.${name}`, value });
  const issue = (owner: number, fields: Json = {}) =>
    msg("MsgIssueToken", {
      symbol: "bird",
      name: "Bird Coin",
      scale: 2,
      min_unit: "cbird",
      initial_supply: "1000",
      max_supply: "0",
      mintable: true,
      owner: kit.addresses[owner],
      ...fields,
    });
  const token = async (denom: string) => {
    const answer = await kit.query("extmod.token.Query.Token", { denom });
    return answer.code === 0 ? (answer.body.Token as Json) : undefined;
  };
  const balanceOf = async (address: string, denom: string) =>
    BigInt(((await kit.query("core.bank.v1beta1.Query.Balance", { address, denom })).body.balance as Json).amount as string);

  it("issues a token: the owner pays the issue fee (tax to the fee collector, the rest burned), and holds the initial supply", async () => {
    const feeCollector = kit.moduleAccount("fee_collector");
    // symbol "bird" (4 letters): factor 2.54, fee trunc(60000 / 2.54) = 23622 hub
    const fee = 23_622_000_000n;
    const result = await kit.deliver(2, [issue(2)]);
    expect(result.code, result.log).to.equal(0);
    const stored = await token("bird");
    expect(stored).to.include({
      symbol: "bird",
      name: "Bird Coin",
      scale: 2,
      min_unit: "cbird",
      initial_supply: "1000",
      max_supply: MAX_UINT64,
      mintable: true,
    });
    expect(stored!.owner).to.equal(kit.addresses[2]);
    expect(await balanceOf(kit.addresses[2]!, "cbird")).to.equal(100_000n);
    // the tax (0.4) reached the fee collector with the tx fee; the rest left the supply
    const tax = (fee * 4n) / 10n;
    const tokenModule = kit.moduleAccount("token");
    expect(attributesOf(result.events, "transfer").slice(1, 3)).to.deep.equal([
      { recipient: tokenModule, sender: kit.addresses[2], amount: `${fee}uhub` },
      { recipient: feeCollector, sender: tokenModule, amount: `${tax}uhub` },
    ]);
    // the block's begin allocated what the collector held; then the tx fee (2000uhub) and the tax arrived
    expect(await balanceOf(feeCollector, "uhub")).to.equal(tax + 2000n);
    expect(await balanceOf(tokenModule, "uhub")).to.equal(0n); // the rest was burned
    expect(attributesOf(result.events, "issue_token")).to.deep.equal([{ symbol: "bird", creator: kit.addresses[2] }]);
    const metadata = (await kit.query("core.bank.v1beta1.Query.DenomMetadata", { denom: "cbird" })).body.metadata as Json;
    expect(metadata).to.deep.include({ description: "Bird Coin", base: "cbird", display: "bird" });
  });

  it("refuses an issue whose symbol or min unit is taken, or whose fields break the rules, with the real codes", async () => {
    const taken = await kit.deliver(3, [issue(3, { min_unit: "xbird" })]);
    expect([taken.codespace, taken.code, taken.log]).to.deep.equal([
      "token",
      8,
      "failed to execute message; message index: 0: symbol already exists: bird: symbol already exists",
    ]);
    const unit = await kit.deliver(3, [issue(3, { symbol: "owl", min_unit: "cat" })]);
    expect([unit.codespace, unit.code]).to.deep.equal(["token", 9]);
    const keyword = await kit.deliver(3, [issue(3, { symbol: "swapx" })]);
    expect([keyword.codespace, keyword.code, keyword.log]).to.deep.equal([
      "token",
      4,
      "invalid token: swapx, can not begin with keyword: (peg|ibc|swap): invalid standard denom",
    ]);
    const scale = await kit.deliver(3, [issue(3, { symbol: "owl", min_unit: "uowl", scale: 10 })]);
    expect([scale.codespace, scale.code, scale.log]).to.deep.equal(["token", 7, "invalid token scale 10, only accepts value [0, 9]: invalid token scale"]);
  });

  it("mints within the max supply, only for the owner of a mintable token, after the mint fee", async () => {
    await kit.deliver(2, [msg("MsgEditToken", { symbol: "bird", name: "[do-not-modify]", max_supply: "1500", mintable: "", owner: kit.addresses[2] })]);
    const minted = await kit.deliver(2, [msg("MsgMintToken", { symbol: "bird", amount: "200", to: kit.addresses[3], owner: kit.addresses[2] })]);
    expect(minted.code, minted.log).to.equal(0);
    expect(await balanceOf(kit.addresses[3]!, "cbird")).to.equal(20_000n);
    expect(attributesOf(minted.events, "mint_token")).to.deep.equal([{ symbol: "bird", amount: "200", recipient: kit.addresses[3] }]);
    const over = await kit.deliver(2, [msg("MsgMintToken", { symbol: "bird", amount: "301", to: "", owner: kit.addresses[2] })]);
    expect([over.codespace, over.code, over.log]).to.deep.equal([
      "token",
      15,
      "failed to execute message; message index: 0: the amount exceeds the mintable token amount; expected (0, 300], got 301: invalid amount",
    ]);
    const stranger = await kit.deliver(3, [msg("MsgMintToken", { symbol: "bird", amount: "1", to: "", owner: kit.addresses[3] })]);
    expect([stranger.codespace, stranger.code]).to.deep.equal(["token", 12]);
    const dog = await kit.deliver(1, [msg("MsgMintToken", { symbol: "dog", amount: "1", to: "", owner: kit.addresses[1] })]);
    expect([dog.codespace, dog.code, dog.log]).to.deep.equal(["token", 13, "failed to execute message; message index: 0: dog: token is not mintable"]);
  });

  it("edits a token: a max supply below what is issued is refused; mintable takes Go's booleans", async () => {
    const below = await kit.deliver(2, [
      msg("MsgEditToken", { symbol: "bird", name: "[do-not-modify]", max_supply: "1100", mintable: "", owner: kit.addresses[2] }),
    ]);
    expect([below.codespace, below.code, below.log]).to.deep.equal([
      "token",
      6,
      "failed to execute message; message index: 0: max supply must not be less than 1200: invalid token maximum supply",
    ]);
    const edited = await kit.deliver(2, [msg("MsgEditToken", { symbol: "bird", name: "Bird", max_supply: "0", mintable: "F", owner: kit.addresses[2] })]);
    expect(edited.code, edited.log).to.equal(0);
    expect(await token("bird")).to.include({ name: "Bird", max_supply: "1500", mintable: false });
  });

  it("burns any holder's own coins and records them in total_burn", async () => {
    const burned = await kit.deliver(3, [msg("MsgBurnToken", { symbol: "bird", amount: "50", sender: kit.addresses[3] })]);
    expect(burned.code, burned.log).to.equal(0);
    expect(await balanceOf(kit.addresses[3]!, "cbird")).to.equal(15_000n);
    const totals = (await kit.query("extmod.token.Query.TotalBurn")).body.burned_coins as Json[];
    expect(totals).to.deep.include({ denom: "cbird", amount: "5000" });
    const unknown = await kit.deliver(3, [msg("MsgBurnToken", { symbol: "nosuch", amount: "1", sender: kit.addresses[3] })]);
    expect([unknown.codespace, unknown.code, unknown.log]).to.deep.equal(["sdk", 18, "burnt failed, only native tokens can be burnt: invalid request"]);
  });

  it("transfers the ownership; the new owner is listed by the owner query; the same owner is refused", async () => {
    const same = await kit.deliver(2, [msg("MsgTransferTokenOwner", { symbol: "bird", src_owner: kit.addresses[2], dst_owner: kit.addresses[2] })]);
    expect([same.codespace, same.code, same.log]).to.deep.equal(["token", 11, "the new owner must not be same as the original owner"]);
    const moved = await kit.deliver(2, [msg("MsgTransferTokenOwner", { symbol: "bird", src_owner: kit.addresses[2], dst_owner: kit.addresses[3] })]);
    expect(moved.code, moved.log).to.equal(0);
    expect((await token("bird"))!.owner).to.equal(kit.addresses[3]);
    const owned = (await kit.query("extmod.token.Query.Tokens", { owner: kit.addresses[3] })).body.Tokens as Json[];
    expect(owned.map((t) => t.symbol)).to.deep.equal(["bird"]);
    expect((await kit.query("extmod.token.Query.Tokens", { owner: kit.addresses[2] })).body.Tokens).to.deep.equal([]);
  });

  it("refuses in the ante handler an issue whose owner cannot pay the fee: no fee taken, no sequence used", async () => {
    const poor = kit.addresses[3]!;
    const holding = await balanceOf(poor, "uhub");
    // send away all but 1 hub: the tx fee (2000uhub) is paid, the issue fee is not
    const keep = 1_000_000n + 2000n;
    const emptied = await kit.deliver(3, [
      {
        typeUrl: "/core.bank.v1beta1.MsgSend",
        value: { fromAddress: poor, toAddress: kit.addresses[0], amount: [{ denom: "uhub", amount: (holding - keep - 2000n).toString() }] },
      },
    ]);
    expect(emptied.code, emptied.log).to.equal(0);
    const refused = await kit.deliver(3, [issue(3, { symbol: "owl", min_unit: "uowl" })]);
    expect([refused.codespace, refused.code, refused.log]).to.deep.equal([
      "sdk",
      5,
      "insufficient coins for token fee; 1000000uhub < 60000000000uhub: insufficient funds",
    ]);
    expect(await balanceOf(poor, "uhub")).to.equal(keep);
  });
});
