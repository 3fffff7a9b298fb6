import { expect } from "chai";
import { attributesOf, NodeTxKit } from "../../../helpers/nodeTxKit.js";

type Json = Record<string, any>;

/**
 * The coinswap Msgs on the dev chain's pool swap/ucat (1 000 000 000 uhub, 5 000 000 000 ucat,
 * 1 000 000 000 liquidity, fee 0.003). The expected amounts are worked from irismod v1.3.1's
 * keeper/swap.go formulas by hand, step after step (each Msg changes the pool for the next).
 */
describe("coinswap Msgs", function () {
  this.timeout(60_000);
  let kit: NodeTxKit;
  let deadline: string;
  before(async () => {
    kit = await NodeTxKit.open(4);
    deadline = String(Math.floor(Date.now() / 1000) + 3600);
  });
  after(() => kit.close());

  const coin = (denom: string, amount: string | number) => ({ denom, amount: String(amount) });
  const swap = (from: number, input: Json, output: Json, buy: boolean, to = from) => ({
    typeUrl: "/extmod.coinswap.MsgSwapOrder",
    value: { input: { address: kit.addresses[from], coin: input }, output: { address: kit.addresses[to], coin: output }, deadline, is_buy_order: buy },
  });
  const pool = async () => (await kit.query("extmod.coinswap.Query.Liquidity", { denom: "ucat" })).body as Json;
  const balanceOf = async (address: string, denom: string) =>
    BigInt(((await kit.query("core.bank.v1beta1.Query.Balance", { address, denom })).body.balance as Json).amount as string);

  it("sells an exact input: 1 000 000 uhub buy 4 980 034 ucat, which the pool pays out", async () => {
    const before = await balanceOf(kit.addresses[1]!, "ucat");
    const sold = await kit.deliver(1, [swap(1, coin("uhub", 1_000_000), coin("ucat", 1), false)]);
    expect(sold.code, sold.log).to.equal(0);
    expect((await balanceOf(kit.addresses[1]!, "ucat")) - before).to.equal(4_980_034n);
    expect(attributesOf(sold.events, "swap")).to.deep.equal([
      { amount: "4980034", sender: kit.addresses[1], recipient: kit.addresses[1], is_buy_order: "false", token_pair: "ucat-uhub" },
    ]);
    expect(await pool()).to.deep.include({ standard: coin("uhub", 1_001_000_000), token: coin("ucat", 4_995_019_966) });
  });

  it("adds liquidity at the pool's ratio: 1 000 000 uhub mint 999 000 and take 4 990 030 ucat", async () => {
    const added = await kit.deliver(0, [
      {
        typeUrl: "/extmod.coinswap.MsgAddLiquidity",
        value: { max_token: coin("ucat", 6_000_000), exact_standard_amt: "1000000", min_liquidity: "1", deadline, sender: kit.addresses[0] },
      },
    ]);
    expect(added.code, added.log).to.equal(0);
    expect(await pool()).to.deep.include({
      standard: coin("uhub", 1_002_000_000),
      token: coin("ucat", 5_000_009_996),
      liquidity: coin("swap/ucat", 1_000_999_000),
    });
    expect(attributesOf(added.events, "add_liquidity")).to.deep.equal([{ sender: kit.addresses[0], token_pair: "uhub-ucat" }]);
  });

  it("buys an exact output: 1 000 000 ucat cost 201 043 uhub; a limit below that is refused", async () => {
    const tooLow = await kit.deliver(1, [swap(1, coin("uhub", 201_042), coin("ucat", 1_000_000), true)]);
    expect([tooLow.codespace, tooLow.code, tooLow.log]).to.deep.equal([
      "coinswap",
      8,
      "failed to execute message; message index: 0: insufficient amount of uhub, user expected: 201042, actual: 201043: constraint not met",
    ]);
    const bought = await kit.deliver(1, [swap(1, coin("uhub", 201_043), coin("ucat", 1_000_000), true)]);
    expect(bought.code, bought.log).to.equal(0);
    expect(attributesOf(bought.events, "swap")[0]).to.include({ amount: "201043", is_buy_order: "true" });
  });

  it("removes liquidity in proportion: 1 000 000 of it give 1 001 200 uhub and 4 994 020 ucat", async () => {
    const removed = await kit.deliver(0, [
      {
        typeUrl: "/extmod.coinswap.MsgRemoveLiquidity",
        value: { withdraw_liquidity: coin("swap/ucat", 1_000_000), min_token: "1", min_standard_amt: "1", deadline, sender: kit.addresses[0] },
      },
    ]);
    expect(removed.code, removed.log).to.equal(0);
    const transfers = attributesOf(removed.events, "transfer");
    expect(transfers.at(-1)).to.include({ recipient: kit.addresses[0], amount: "4994020ucat,1001200uhub" });
  });

  it("refuses a passed deadline, an unknown pool and equal denoms with the real codes", async () => {
    const late = await kit.deliver(1, [
      { ...swap(1, coin("uhub", 10), coin("ucat", 1), false), value: { ...swap(1, coin("uhub", 10), coin("ucat", 1), false).value, deadline: "1" } },
    ]);
    expect([late.codespace, late.code, late.log]).to.deep.equal([
      "coinswap",
      7,
      "failed to execute message; message index: 0: deadline has passed for MsgSwapOrder: invalid deadline",
    ]);
    const nopool = await kit.deliver(1, [swap(1, coin("uhub", 10), coin("mdog", 1), false)]);
    expect([nopool.codespace, nopool.code, nopool.log]).to.deep.equal([
      "coinswap",
      2,
      "failed to execute message; message index: 0: swap/mdog: reserve pool not exists",
    ]);
    const same = await kit.deliver(1, [swap(1, coin("uhub", 10), coin("uhub", 1), false)]);
    expect([same.codespace, same.code, same.log]).to.deep.equal(["coinswap", 3, "invalid swap: input and output denomination are equal"]);
  });
});
