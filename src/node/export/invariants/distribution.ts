import { bech32Prefixes, moduleAddressBytes } from "../../../codec/addresses.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import { getAllBalances, formatCoins } from "../../modules/bank/keeper.js";
import { FEE_POOL_KEY, HISTORICAL_PREFIX, OUTSTANDING_PREFIX, SLASH_EVENT_PREFIX } from "../../modules/distribution/keys.js";
import type { QueryContext } from "../../modules/nodeModule.js";
import { decCoinsAdd, decCoinsFromProto, decCoinsTruncate, formatDecCoins } from "../../modules/shared/decMath.js";
import { decodedAt, decodedUnder, entriesUnder } from "../../modules/shared/exportReads.js";
import { DELEGATION_PREFIX, VALIDATORS_PREFIX } from "../../modules/staking/keys.js";
import { formatInvariant, sameCoins, sumByDenom, type Invariant } from "./invariant.js";

const P = "core.distribution.v1beta1.";
const outstanding = async (ctx: QueryContext) =>
  (await decodedUnder(ctx.storeOf("distribution"), OUTSTANDING_PREFIX, ctx, P + "ValidatorOutstandingRewards")).map(([operator, value]) => ({
    operator,
    rewards: decCoinsFromProto(value.rewards),
  }));
const count = async (ctx: QueryContext, module: string, prefix: Uint8Array) => (await entriesUnder(ctx.storeOf(module), prefix)).length;

/**
 * x/distribution v0.41 keeper/invariants.go, but for can-withdraw (withdrawing every reward on a
 * throwaway layer): not run here; --for-zero-height withdraws them all just after.
 */
export const distributionInvariants: Invariant[] = [
  {
    module: "distribution",
    route: "nonnegative-outstanding",
    async check(ctx) {
      const valoper = bech32Prefixes(ctx.chain.bech32Prefix).validatorOperator;
      const negative = (await outstanding(ctx)).filter((o) => o.rewards.some((coin) => coin.amount < 0n));
      const lines = negative.map((o) => `\t${encodeBech32Address(valoper, o.operator)} has negative outstanding coins: ${formatDecCoins(o.rewards)}\n`);
      return {
        message: formatInvariant(
          "distribution",
          "nonnegative outstanding",
          `found ${negative.length} validators with negative outstanding rewards\n${lines.join("")}`,
        ),
        broken: negative.length > 0,
      };
    },
  },
  {
    module: "distribution",
    route: "reference-count",
    async check(ctx) {
      const validators = await count(ctx, "staking", VALIDATORS_PREFIX);
      const delegations = await count(ctx, "staking", DELEGATION_PREFIX);
      const slashes = await count(ctx, "distribution", SLASH_EVENT_PREFIX);
      let actual = 0;
      for (const [, historical] of await decodedUnder(ctx.storeOf("distribution"), HISTORICAL_PREFIX, ctx, P + "ValidatorHistoricalRewards"))
        actual += Number(historical.reference_count ?? 0);
      const expected = validators + delegations + slashes;
      return {
        message: formatInvariant(
          "distribution",
          "reference count",
          `expected historical reference count: ${expected} = ${validators} validators + ${delegations} delegations + ${slashes} slashes\nactual historical reference count: ${actual}\n`,
        ),
        broken: actual !== expected,
      };
    },
  },
  {
    module: "distribution",
    route: "module-account",
    async check(ctx) {
      const pool = decCoinsFromProto((await decodedAt(ctx.storeOf("distribution"), FEE_POOL_KEY, ctx, P + "FeePool")).community_pool);
      const expected = sumByDenom(decCoinsTruncate((await outstanding(ctx)).reduce((sum, o) => decCoinsAdd(sum, o.rewards), pool)));
      const held = sumByDenom(await getAllBalances(ctx.storeOf("bank"), moduleAddressBytes("distribution")));
      return {
        message: formatInvariant(
          "distribution",
          "ModuleAccount coins",
          `\texpected ModuleAccount coins:     ${formatCoins(expected)}\n\tdistribution ModuleAccount coins: ${formatCoins(held)}\n`,
        ),
        broken: !sameCoins(expected, held),
      };
    },
  },
];
