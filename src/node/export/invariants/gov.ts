import { moduleAddressBytes } from "../../../codec/addresses.js";
import { coinsFromProto, formatCoins, getAllBalances } from "../../modules/bank/keeper.js";
import { DEPOSITS_PREFIX } from "../../modules/gov/keys.js";
import { valuesUnder } from "../../modules/shared/exportReads.js";
import { formatInvariant, sameCoins, sumByDenom, type Invariant } from "./invariant.js";

/** x/gov v0.41 keeper/invariants.go: the module account holds exactly the deposits. */
export const govInvariants: Invariant[] = [
  {
    module: "gov",
    route: "module-account",
    async check(ctx) {
      const deposits = await valuesUnder(ctx.storeOf("gov"), DEPOSITS_PREFIX, ctx, "core.gov.v1beta1.Deposit");
      const expected = sumByDenom(deposits.flatMap((deposit) => coinsFromProto(deposit.amount)));
      const held = sumByDenom(await getAllBalances(ctx.storeOf("bank"), moduleAddressBytes("gov")));
      return {
        message: formatInvariant("gov", "deposits", `\tgov ModuleAccount coins: ${formatCoins(held)}\n\tsum of deposit amounts:  ${formatCoins(expected)}\n`),
        broken: !sameCoins(expected, held),
      };
    },
  },
];
