import { expect } from "chai";
import { lockedCoins } from "../../src/methods/bank/lockedCoins.js";

const coins = (amount: number, denom = "uhub") => [{ denom, amount: String(amount) }];
const base = (original: number, end: number, delegatedVesting = 0) => ({
  base_vesting_account: { original_vesting: coins(original), delegated_vesting: delegatedVesting ? coins(delegatedVesting) : [], end_time: String(end) },
});
const locked = (type: string, account: object, now: number) => lockedCoins(`/core.vesting.v1beta1.${type}`, account as never, BigInt(now)).get("uhub") ?? 0n;

/** The vesting rules of v0.41's x/auth/vesting, by account type, that spendable_balances subtracts. */
describe("locked coins of vesting accounts (spendable_balances)", () => {
  it("continuous: linear between start and end, rounded half to even as Dec.RoundInt", () => {
    const account = { ...base(1000, 200), start_time: "100" };
    expect(locked("ContinuousVestingAccount", account, 50)).to.equal(1000n);
    expect(locked("ContinuousVestingAccount", account, 100)).to.equal(1000n);
    expect(locked("ContinuousVestingAccount", account, 125)).to.equal(750n);
    expect(locked("ContinuousVestingAccount", account, 200)).to.equal(0n);
    // 1/3 of 1000 = 333.33…: vested 333, locked 667
    expect(locked("ContinuousVestingAccount", { ...base(1000, 400), start_time: "100" }, 200)).to.equal(667n);
  });

  it("delayed: all locked until the end", () => {
    expect(locked("DelayedVestingAccount", base(500, 300), 299)).to.equal(500n);
    expect(locked("DelayedVestingAccount", base(500, 300), 300)).to.equal(0n);
  });

  it("periodic: each period's amount vests when its length has passed", () => {
    const account = {
      ...base(300, 400),
      start_time: "100",
      vesting_periods: [
        { length: "100", amount: coins(100) },
        { length: "200", amount: coins(200) },
      ],
    };
    expect(locked("PeriodicVestingAccount", account, 150)).to.equal(300n);
    expect(locked("PeriodicVestingAccount", account, 200)).to.equal(200n);
    expect(locked("PeriodicVestingAccount", account, 399)).to.equal(200n);
    expect(locked("PeriodicVestingAccount", account, 400)).to.equal(0n);
  });

  it("permanent locked: never vests; delegated vesting coins are not locked twice", () => {
    expect(locked("PermanentLockedAccount", base(800, 0), 10_000)).to.equal(800n);
    expect(locked("PermanentLockedAccount", base(800, 0, 300), 10_000)).to.equal(500n);
    expect(locked("PermanentLockedAccount", base(800, 0, 900), 10_000)).to.equal(0n);
  });

  it("any other account type locks nothing", () => {
    expect(lockedCoins("/core.auth.v1beta1.BaseAccount", {}, 0n).size).to.equal(0);
  });
});
