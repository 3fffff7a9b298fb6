import { encodeBech32Address } from "../../../codec/bech32.js";
import { decodeCoin } from "../../modules/bank/coinValues.js";
import { formatCoins, getTotalSupply } from "../../modules/bank/keeper.js";
import { BALANCES_PREFIX } from "../../modules/bank/keys.js";
import { entriesUnder } from "../../modules/shared/exportReads.js";
import type { QueryContext } from "../../modules/nodeModule.js";
import { formatInvariant, sameCoins, sumByDenom, type Invariant } from "./invariant.js";

const ADDRESS_LENGTH = 20;

async function balances(ctx: QueryContext) {
  return (await entriesUnder(ctx.storeOf("bank"), BALANCES_PREFIX)).map(([key, value]) => ({ address: key.subarray(0, ADDRESS_LENGTH), ...decodeCoin(value) }));
}

/** x/bank v0.41 keeper/invariants.go. */
export const bankInvariants: Invariant[] = [
  {
    module: "bank",
    route: "nonnegative-outstanding",
    async check(ctx) {
      const negative = (await balances(ctx)).filter((coin) => coin.amount < 0n);
      const lines = negative.map((c) => `\t${encodeBech32Address(ctx.chain.bech32Prefix, c.address)} has a negative balance of ${c.amount}${c.denom}\n`);
      return {
        message: formatInvariant("bank", "nonnegative-outstanding", `amount of negative balances found ${negative.length}\n${lines.join("")}`),
        broken: negative.length > 0,
      };
    },
  },
  {
    module: "bank",
    route: "total-supply",
    async check(ctx) {
      const sum = sumByDenom(await balances(ctx));
      const supply = sumByDenom(await getTotalSupply(ctx.storeOf("bank")));
      return {
        message: formatInvariant("bank", "total supply", `\tsum of accounts coins: ${formatCoins(sum)}\n\tsupply.Total:          ${formatCoins(supply)}\n`),
        broken: !sameCoins(sum, supply),
      };
    },
  },
];
