import { moduleAddress } from "../../../codec/addresses.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { burnCoins } from "../bank/keeper.js";
import type { ExecContext } from "../nodeModule.js";
import { DEC_ONE, decFromInt, decFromWire, decMul, decTruncateInt } from "../shared/decMath.js";
import { jailValidator, unbond } from "./delegation.js";
import { timestampDate } from "../shared/goTime.js";
import { BONDED_POOL, NOT_BONDED_POOL } from "./genesis.js";
import { stakingHooks } from "./hooks.js";
import {
  BondStatus,
  POWER_REDUCTION,
  bondDenom,
  getDelegation,
  getValidator,
  getValidatorByConsensusAddress,
  operatorBytes,
  validatorTokens,
} from "./keeper.js";
import { splitAddresses, unbondingsByValidatorPrefix, redelegationsBySrcPrefix, redelegationKey } from "./keys.js";
import { deletePowerIndex, getUnbonding, putUnbonding, setPowerIndex, setValidator, staking } from "./store.js";
import { fieldText } from "../../../codec/fieldText.js";

/** Slashing of a validator (v0.41 keeper/slash.go): its tokens, and stake that left it after the infraction. */

async function burn(ctx: ExecContext, pool: string, amount: bigint): Promise<void> {
  if (amount <= 0n) return;
  await burnCoins(ctx, moduleAddress(ctx.chain.bech32Prefix, pool), [{ denom: await bondDenom(staking(ctx), ctx), amount }]);
}

const isMature = (entry: ProtoMessage, now: Date) => timestampDate(entry.completion_time as ProtoMessage).getTime() <= now.getTime();

/** Dec.QuoRoundUp of two integers. */
function quoRoundUp(a: bigint, b: bigint): bigint {
  const quotient = (decFromInt(a) * DEC_ONE * DEC_ONE) / decFromInt(b);
  return quotient % DEC_ONE === 0n ? quotient / DEC_ONE : quotient / DEC_ONE + 1n;
}

/**
 * Keeper.Slash: slashFactor × the power at the infraction; unbonding
 * delegations and redelegations begun at or after the infraction height pay
 * their share, the validator's tokens the rest (burned from its pool).
 */
export async function slash(ctx: ExecContext, consensus: Uint8Array, infractionHeight: number, power: bigint, factor: bigint): Promise<void> {
  const slashAmount = decTruncateInt(decMul(decFromInt(power * POWER_REDUCTION), factor));
  let validator = await getValidatorByConsensusAddress(staking(ctx), ctx, consensus);
  if (!validator) return;
  if (validator.status === BondStatus.unbonded) throw new Error("should not be slashing unbonded validator");
  const operator = operatorBytes(validator, ctx);
  let remaining = slashAmount;
  if (infractionHeight < ctx.height) {
    const delegators: Uint8Array[] = [];
    for await (const [key] of staking(ctx).iterate(unbondingsByValidatorPrefix(operator))) delegators.push(splitAddresses(key)[0]!);
    for (const delegator of delegators) remaining -= await slashUnbonding(ctx, delegator, operator, infractionHeight, factor);
    const redelegations: Array<[Uint8Array, Uint8Array]> = [];
    for await (const [key] of staking(ctx).iterate(redelegationsBySrcPrefix(operator))) {
      const [delegator, dst] = splitAddresses(key);
      redelegations.push([delegator!, dst!]);
    }
    for (const [delegator, dst] of redelegations) remaining -= await slashRedelegation(ctx, delegator, operator, dst, infractionHeight, factor);
    validator = (await getValidator(staking(ctx), ctx, operator))!;
  }
  const tokens = validatorTokens(validator);
  let toBurn = remaining < tokens ? remaining : tokens;
  if (toBurn < 0n) toBurn = 0n;
  if (tokens > 0n) {
    const fraction = quoRoundUp(toBurn, tokens);
    await stakingHooks.beforeValidatorSlashed(ctx, operator, fraction > DEC_ONE ? DEC_ONE : fraction);
  }
  validator = (await getValidator(staking(ctx), ctx, operator))!;
  deletePowerIndex(ctx, operator, validator);
  validator.tokens = (validatorTokens(validator) - toBurn).toString();
  setValidator(ctx, operator, validator);
  setPowerIndex(ctx, operator, validator);
  await burn(ctx, validator.status === BondStatus.bonded ? BONDED_POOL : NOT_BONDED_POOL, toBurn);
}

/** SlashUnbondingDelegation: entries begun at or after the infraction, not yet mature, lose factor × their initial balance. */
async function slashUnbonding(ctx: ExecContext, delegator: Uint8Array, operator: Uint8Array, infractionHeight: number, factor: bigint): Promise<bigint> {
  const ubd = await getUnbonding(staking(ctx), ctx, delegator, operator);
  if (!ubd) return 0n;
  let total = 0n;
  let burned = 0n;
  for (const entry of (ubd.entries ?? []) as ProtoMessage[]) {
    if (Number(fieldText(entry.creation_height, "0")) < infractionHeight || isMature(entry, ctx.time)) continue;
    const amount = decTruncateInt(decMul(decFromInt(BigInt(fieldText(entry.initial_balance, "0"))), factor));
    total += amount;
    const balance = BigInt(fieldText(entry.balance, "0"));
    const cut = amount < balance ? amount : balance;
    if (cut === 0n) continue;
    burned += cut;
    entry.balance = (balance - cut).toString();
  }
  if (burned > 0n) putUnbonding(ctx, delegator, operator, ubd);
  await burn(ctx, NOT_BONDED_POOL, burned);
  return total;
}

/** SlashRedelegation: the redelegated stake is unbonded from the destination and burned. */
async function slashRedelegation(
  ctx: ExecContext,
  delegator: Uint8Array,
  src: Uint8Array,
  dst: Uint8Array,
  infractionHeight: number,
  factor: bigint,
): Promise<bigint> {
  const bytes = await staking(ctx).get(redelegationKey(delegator, src, dst));
  if (!bytes) return 0n;
  const red = ctx.codec.type("core.staking.v1beta1.Redelegation").decode(bytes) as unknown as ProtoMessage;
  let total = 0n;
  let bondedBurn = 0n;
  let notBondedBurn = 0n;
  for (const entry of (red.entries ?? []) as ProtoMessage[]) {
    if (Number(fieldText(entry.creation_height, "0")) < infractionHeight || isMature(entry, ctx.time)) continue;
    total += decTruncateInt(decMul(decFromInt(BigInt(fieldText(entry.initial_balance, "0"))), factor));
    let shares = decMul(factor, decFromWire(entry.shares_dst as string));
    if (shares === 0n) continue;
    const delegation = await getDelegation(staking(ctx), ctx, delegator, dst);
    if (!delegation) continue;
    const held = decFromWire(delegation.shares as string);
    if (shares > held) shares = held;
    const tokens = await unbond(ctx, delegator, dst, shares);
    const dstValidator = await getValidator(staking(ctx), ctx, dst);
    if (!dstValidator) throw new Error("destination validator not found");
    if (dstValidator.status === BondStatus.bonded) bondedBurn += tokens;
    else notBondedBurn += tokens;
  }
  await burn(ctx, BONDED_POOL, bondedBurn);
  await burn(ctx, NOT_BONDED_POOL, notBondedBurn);
  return total;
}

/** Keeper.Jail by consensus address. */
export async function jail(ctx: ExecContext, consensus: Uint8Array): Promise<void> {
  const validator = await getValidatorByConsensusAddress(staking(ctx), ctx, consensus);
  if (!validator) throw new Error("validator with consensus-Address not found");
  jailValidator(ctx, operatorBytes(validator, ctx), validator);
}
