import { bech32Prefixes, moduleAddressBytes } from "../../../codec/addresses.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import { getAllBalances, formatCoins } from "../../modules/bank/keeper.js";
import { FEE_POOL_KEY, HISTORICAL_PREFIX, OUTSTANDING_PREFIX, SLASH_EVENT_PREFIX } from "../../modules/distribution/keys.js";
import type { QueryContext } from "../../modules/nodeModule.js";
import { decCoinsAdd, decCoinsFromProto, decCoinsTruncate, formatDecCoins } from "../../modules/shared/decMath.js";
import { decodedAt, decodedUnder, entriesUnder } from "../../modules/shared/exportReads.js";
import { DELEGATION_PREFIX, VALIDATORS_PREFIX } from "../../modules/staking/keys.js";
import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { withdrawDelegationRewards, withdrawValidatorCommission } from "../../modules/distribution/rewards.js";
import { getOutstanding } from "../../modules/distribution/state.js";
import { DELEGATION_TYPE, operatorBytes, VALIDATOR_TYPE } from "../../modules/staking/keeper.js";
import { formatInvariant, sameCoins, sumByDenom, type Invariant } from "./invariant.js";

const P = "core.distribution.v1beta1.";
const outstanding = async (ctx: QueryContext) =>
  (await decodedUnder(ctx.storeOf("distribution"), OUTSTANDING_PREFIX, ctx, P + "ValidatorOutstandingRewards")).map(([operator, value]) => ({
    operator,
    rewards: decCoinsFromProto(value.rewards),
  }));
const count = async (ctx: QueryContext, module: string, prefix: Uint8Array) => (await entriesUnder(ctx.storeOf(module), prefix)).length;

/** x/distribution v0.41 keeper/invariants.go. */
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
    route: "can-withdraw",
    /** Every commission and every delegation's rewards withdrawn on a throwaway copy; no validator may be left owing. */
    async check(ctx) {
      const exec = ctx.scratch();
      const staking = exec("staking");
      const distribution = exec("distribution");
      const delegations = new Map<string, ProtoMessage[]>();
      for (const [, delegation] of await decodedUnder(staking.store, DELEGATION_PREFIX, staking, DELEGATION_TYPE)) {
        const operator = fieldText(delegation.validator_address);
        delegations.set(operator, [...(delegations.get(operator) ?? []), delegation]);
      }
      let remaining: Array<{ denom: string; amount: bigint }> = [];
      for (const [, validator] of await decodedUnder(staking.store, VALIDATORS_PREFIX, staking, VALIDATOR_TYPE)) {
        const operator = operatorBytes(validator, staking);
        await withdrawValidatorCommission(distribution, operator).catch(() => undefined);
        // a failed withdrawal stops the check with its error, as the real invariant panics
        for (const delegation of delegations.get(fieldText(validator.operator_address)) ?? [])
          await withdrawDelegationRewards(distribution, validator, delegation);
        remaining = await getOutstanding(distribution, operator);
        if (remaining[0] && remaining[0].amount < 0n) break;
      }
      return {
        message: formatInvariant("distribution", "can withdraw", `remaining coins: ${formatDecCoins(remaining)}\n`),
        broken: remaining[0] !== undefined && remaining[0].amount < 0n,
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
