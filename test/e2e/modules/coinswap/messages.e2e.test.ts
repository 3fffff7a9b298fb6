import { expect } from "chai";
import { aminoWallet } from "../../../helpers/aminoWallet.js";
import { TEST_MNEMONIC } from "../../../helpers/devNode.js";
import { LegacyTxFlow } from "../../../helpers/legacyTxFlow.js";
import { useStartedDevChain } from "../../../helpers/startedDevChain.js";

/**
 * Swaps and liquidity on the dev chain's pool swap/ucat through the legacy generate routes
 * (deadline as a Go duration, signed with @cosmjs/amino, POST /txs), read back on both families.
 */
describe("e2e: coinswap transactions", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain({ accounts: 4, mnemonic: TEST_MNEMONIC });
  const flow = new LegacyTxFlow(() => chain.node().restUrl);
  // all balances, then the denom: a liquidity denom has a "/", which a path variable cannot carry
  const balance = async (address: string, denom: string) =>
    BigInt(
      ((await chain.ok(`/core/bank/v1beta1/balances/${address}`)).balances as Array<{ denom: string; amount: string }>).find((c) => c.denom === denom)
        ?.amount ?? "0",
    );

  it("sells 1 000 000 uhub for 4 980 034 ucat with POST /coinswap/liquidities/sell; the pool shows the new reserves", async () => {
    const trader = await aminoWallet(1);
    const before = await balance(trader.address, "ucat");
    const sent = await flow.send(trader, "/coinswap/liquidities/sell", {
      input: { address: trader.address, coin: { denom: "uhub", amount: "1000000" } },
      output: { address: trader.address, coin: { denom: "ucat", amount: "1" } },
      deadline: "10m",
    });
    expect(sent.body.code, sent.body.raw_log).to.equal(undefined);
    expect((await balance(trader.address, "ucat")) - before).to.equal(4_980_034n);
    const pool = await chain.ok("/extmod/coinswap/liquidities/ucat");
    expect(pool).to.deep.include({ standard: { denom: "uhub", amount: "1001000000" }, token: { denom: "ucat", amount: "4995019966" } });
    expect((await chain.ok("/coinswap/liquidities/ucat")).result).to.deep.include({ standard: { denom: "uhub", amount: "1001000000" } });
  });

  it("withdraws liquidity of the pool named by its token with POST /coinswap/liquidities/{denom}/withdraw", async () => {
    const provider = await aminoWallet(0);
    const before = await balance(provider.address, "swap/ucat");
    const sent = await flow.send(provider, "/coinswap/liquidities/ucat/withdraw", {
      sender: provider.address,
      withdraw_liquidity: "1000000",
      min_token: "1",
      min_standard_amt: "1",
      deadline: "10m",
    });
    expect(sent.body.code, sent.body.raw_log).to.equal(undefined);
    expect(before - (await balance(provider.address, "swap/ucat"))).to.equal(1_000_000n);
    expect((await chain.ok("/extmod/coinswap/liquidities/ucat")).liquidity).to.deep.equal({ denom: "swap/ucat", amount: "999000000" });
  });

  it("refuses a buy whose input limit is below the price, with the real code", async () => {
    const trader = await aminoWallet(1);
    const sent = await flow.send(trader, "/coinswap/liquidities/buy", {
      input: { address: trader.address, coin: { denom: "uhub", amount: "1" } },
      output: { address: trader.address, coin: { denom: "ucat", amount: "1000000" } },
      deadline: "10m",
    });
    expect([sent.body.codespace, sent.body.code]).to.deep.equal(["coinswap", 8]);
  });
});
