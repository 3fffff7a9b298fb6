import { expect } from "chai";
import { tally } from "../../../../src/node/modules/gov/tally.js";
import { DEC_ONE } from "../../../../src/node/modules/shared/decMath.js";

/** Runs the InitGenesis of bank and then of `modules` on an empty in-memory state. */

describe("gov tally", () => {
  const validators = [
    { operator: "v1", bondedTokens: 1000n, delegatorShares: 1000n * DEC_ONE },
    { operator: "v2", bondedTokens: 500n, delegatorShares: 1000n * DEC_ONE },
  ];
  const own = { option: 3, operator: "v1", delegations: [{ validator: "v1", shares: 600n * DEC_ONE }] };
  const delegator = (option: number) => ({
    option,
    operator: "d",
    delegations: [
      { validator: "v1", shares: 400n * DEC_ONE },
      { validator: "v2", shares: 1000n * DEC_ONE },
    ],
  });
  it("gives a validator's vote the power of the delegators who did not vote", () => {
    expect(tally(validators, [own])).to.deep.equal({ yes: 0n, abstain: 0n, no: 1000n, noWithVeto: 0n });
  });

  it("lets a delegator's own vote override the validator's for its shares", () => {
    expect(tally(validators, [own, delegator(1)])).to.deep.equal({ yes: 900n, abstain: 0n, no: 600n, noWithVeto: 0n });
  });

  it("counts only bonded validators and truncates the totals", () => {
    const third = { operator: "v3", bondedTokens: 10n, delegatorShares: 3n * DEC_ONE };
    expect(
      tally(
        [third],
        [
          {
            option: 2,
            operator: "x",
            delegations: [
              { validator: "v3", shares: DEC_ONE },
              { validator: "unbonded", shares: DEC_ONE },
            ],
          },
        ],
      ),
    ).to.deep.equal({
      yes: 0n,
      abstain: 3n, // 1/3 × 10 = 3.33...
      no: 0n,
      noWithVeto: 0n,
    });
  });
});
