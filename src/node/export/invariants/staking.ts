import { moduleAddressBytes } from "../../../codec/addresses.js";
import { formatDec } from "../../../codec/decimal.js";
import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { getBalance } from "../../modules/bank/keeper.js";
import type { QueryContext } from "../../modules/nodeModule.js";
import { decFromWire } from "../../modules/shared/decMath.js";
import { decodedUnder, entriesUnder } from "../../modules/shared/exportReads.js";
import { BONDED_POOL, NOT_BONDED_POOL } from "../../modules/staking/genesis.js";
import {
  bondDenom,
  BondStatus,
  consensusPower,
  DELEGATION_TYPE,
  getValidator,
  VALIDATOR_TYPE,
  validatorShares,
  validatorTokens,
} from "../../modules/staking/keeper.js";
import { DELEGATION_PREFIX, POWER_INDEX_PREFIX, powerIndexKey, UNBONDING_PREFIX, VALIDATORS_PREFIX } from "../../modules/staking/keys.js";
import { bytesEqual, concatBytes } from "../../store/keyEncoding.js";
import { formatInvariant, type Invariant } from "./invariant.js";

const validators = async (ctx: QueryContext) => (await decodedUnder(ctx.storeOf("staking"), VALIDATORS_PREFIX, ctx, VALIDATOR_TYPE)).map(([, v]) => v);
const delegations = async (ctx: QueryContext) => (await decodedUnder(ctx.storeOf("staking"), DELEGATION_PREFIX, ctx, DELEGATION_TYPE)).map(([, d]) => d);
/** Go's %v of a []byte. */
const goBytes = (bytes: Uint8Array) => `[${[...bytes].join(" ")}]`;
/** The proto types' String() (yaml) of a delegation, as %+v prints it. */
const delegationText = (d: ProtoMessage) =>
  `delegator_address: ${fieldText(d.delegator_address)}\nvalidator_address: ${fieldText(d.validator_address)}\nshares: "${formatDec(decFromWire(d.shares as string))}"\n`;

/** x/staking v0.41 keeper/invariants.go. */
export const stakingInvariants: Invariant[] = [
  {
    module: "staking",
    route: "module-accounts",
    async check(ctx) {
      const store = ctx.storeOf("staking");
      const denom = await bondDenom(store, ctx);
      let bonded = 0n;
      let notBonded = 0n;
      for (const validator of await validators(ctx)) {
        if (Number(validator.status ?? 0) === BondStatus.bonded) bonded += validatorTokens(validator);
        else notBonded += validatorTokens(validator);
      }
      for (const [, ubd] of await decodedUnder(store, UNBONDING_PREFIX, ctx, "core.staking.v1beta1.UnbondingDelegation"))
        for (const entry of (ubd.entries ?? []) as ProtoMessage[]) notBonded += BigInt(fieldText(entry.balance, "0"));
      const bank = ctx.storeOf("bank");
      const poolBonded = await getBalance(bank, moduleAddressBytes(BONDED_POOL), denom);
      const poolNotBonded = await getBalance(bank, moduleAddressBytes(NOT_BONDED_POOL), denom);
      const message =
        `\tPool's bonded tokens: ${poolBonded}${denom}\n\tsum of bonded tokens: ${bonded}\n` +
        `not bonded token invariance:\n\tPool's not bonded tokens: ${poolNotBonded}${denom}\n\tsum of not bonded tokens: ${notBonded}\n` +
        `module accounts total (bonded + not bonded):\n\tModule Accounts' tokens: ${poolBonded + poolNotBonded}${denom}\n\tsum tokens:              ${bonded + notBonded}\n`;
      return {
        message: formatInvariant("staking", "bonded and not bonded module account coins", message),
        broken: poolBonded !== bonded || poolNotBonded !== notBonded,
      };
    },
  },
  {
    module: "staking",
    route: "nonnegative-power",
    async check(ctx) {
      const store = ctx.storeOf("staking");
      let message = "";
      for (const [key, operator] of await entriesUnder(store, POWER_INDEX_PREFIX)) {
        const validator = await getValidator(store, ctx, operator);
        if (!validator) throw new Error(`validator record not found for address: ${Buffer.from(operator).toString("hex").toUpperCase()}\n`);
        const tokens = validatorTokens(validator);
        const expected = powerIndexKey(operator, consensusPower(tokens));
        const stored = concatBytes(POWER_INDEX_PREFIX, key);
        if (!bytesEqual(stored, expected))
          message += `power store invariance:\n\tvalidator.Power: ${consensusPower(tokens)}\n\tkey should be: ${goBytes(expected)}\n\tkey in store: ${goBytes(stored)}\n`;
        if (tokens < 0n) message += `\tnegative tokens for validator: ${fieldText(validator.operator_address)}\n`;
      }
      return { message: formatInvariant("staking", "nonnegative power", `found invalid validator powers\n${message}`), broken: message !== "" };
    },
  },
  {
    module: "staking",
    route: "positive-delegation",
    async check(ctx) {
      let count = 0;
      let message = "";
      for (const delegation of await delegations(ctx)) {
        const shares = decFromWire(delegation.shares as string);
        if (shares < 0n) message += `\tdelegation with negative shares: ${delegationText(delegation)}\n`;
        if (shares === 0n) message += `\tdelegation with zero shares: ${delegationText(delegation)}\n`;
        if (shares <= 0n) count++;
      }
      return { message: formatInvariant("staking", "positive delegations", `${count} invalid delegations found\n${message}`), broken: count > 0 };
    },
  },
  {
    module: "staking",
    route: "delegator-shares",
    async check(ctx) {
      const sums = new Map<string, bigint>();
      for (const delegation of await delegations(ctx)) {
        const operator = fieldText(delegation.validator_address);
        sums.set(operator, (sums.get(operator) ?? 0n) + decFromWire(delegation.shares as string));
      }
      let message = "";
      for (const validator of await validators(ctx)) {
        const total = sums.get(fieldText(validator.operator_address)) ?? 0n;
        if (validatorShares(validator) !== total)
          message += `broken delegator shares invariance:\n\tvalidator.DelegatorShares: ${formatDec(validatorShares(validator))}\n\tsum of Delegator.Shares: ${formatDec(total)}\n`;
      }
      return { message: formatInvariant("staking", "delegator shares", message), broken: message !== "" };
    },
  },
];
