import { moduleAddress } from "../../../codec/addresses.js";
import { bech32Prefixes } from "../../../codec/addresses.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { getAllBalances, sendCoins } from "../bank/keeper.js";
import type { ExecContext } from "../nodeModule.js";
import {
  DEC_ONE,
  decCoinsAdd,
  decCoinsFromCoins,
  decCoinsMulDec,
  decCoinsMulDecTruncate,
  decCoinsSub,
  decFromInt,
  decFromWire,
  decMulTruncate,
  decQuo,
  decQuoTruncate,
  formatDecCoins,
  type DecCoin,
} from "../shared/decMath.js";
import { getValidatorByConsensusAddress, operatorBytes } from "../staking/keeper.js";
import { moduleAddressBytes } from "../../../codec/addresses.js";
import { DISTRIBUTION_ACCOUNT } from "./genesis.js";
import { readDistributionParams } from "./queries.js";
import {
  distribution,
  getCommission,
  getCommunityPool,
  getCurrentRewards,
  getOutstanding,
  getPreviousProposer,
  setCommission,
  setCommunityPool,
  setCurrentRewards,
  setOutstanding,
  setPreviousProposer,
} from "./state.js";
import { fieldText } from "../../../codec/fieldText.js";
import { processLogger } from "../../../telemetry/processLogger.js";

const FEE_COLLECTOR = "fee_collector";

/**
 * BeginBlocker of x/distribution (v0.41): from the second block on, the fees
 * (and inflation) collected in the previous block are allocated; then this
 * block's proposer is recorded for the next one.
 */
export async function distributionBeginBlock(ctx: ExecContext): Promise<void> {
  const votes = ctx.block?.lastCommit ?? [];
  let total = 0n;
  let signed = 0n;
  for (const vote of votes) {
    total += vote.power;
    if (vote.signed) signed += vote.power;
  }
  if (ctx.height > 1) {
    const proposer = await getPreviousProposer(ctx);
    await allocateTokens(ctx, signed, total, proposer, votes);
  }
  if (ctx.block) setPreviousProposer(ctx, ctx.block.proposer);
}

/**
 * AllocateTokens: the fee collector's balance moves to the distribution
 * account; the previous proposer gets base + bonus × (signed power fraction),
 * each voter its power share of the rest less the community tax, and the
 * community pool what remains.
 */
async function allocateTokens(
  ctx: ExecContext,
  signedPower: bigint,
  totalPower: bigint,
  proposer: Uint8Array | undefined,
  votes: Array<{ address: Uint8Array; power: bigint }>,
): Promise<void> {
  const prefix = ctx.chain.bech32Prefix;
  const collected = await getAllBalances(ctx.storeOf("bank"), moduleAddressBytes(FEE_COLLECTOR));
  const fees = decCoinsFromCoins(collected);
  await sendCoins(ctx, moduleAddress(prefix, FEE_COLLECTOR), moduleAddress(prefix, DISTRIBUTION_ACCOUNT), collected);
  if (totalPower === 0n) {
    setCommunityPool(ctx, decCoinsAdd(await getCommunityPool(ctx), fees));
    return;
  }
  const params = await readDistributionParams(distribution(ctx), ctx);
  const fractionVotes = decQuo(decFromInt(signedPower), decFromInt(totalPower));
  const proposerMultiplier =
    decFromWire(params.base_proposer_reward as string) + decMulTruncate(decFromWire(params.bonus_proposer_reward as string), fractionVotes);
  const proposerReward = decCoinsMulDecTruncate(fees, proposerMultiplier);
  let remaining = fees;
  const staking = ctx.storeOf("staking");
  const proposerValidator = proposer ? await getValidatorByConsensusAddress(staking, ctx, proposer) : undefined;
  if (proposerValidator) {
    ctx.emit({
      type: "proposer_reward",
      attributes: [
        { key: "amount", value: formatDecCoins(proposerReward) },
        { key: "validator", value: String(proposerValidator.operator_address) },
      ],
    });
    await allocateToValidator(ctx, proposerValidator, proposerReward);
    remaining = decCoinsSub(remaining, proposerReward);
  } else {
    const consensus = proposer ? encodeBech32Address(bech32Prefixes(prefix).consensus, proposer) : "";
    processLogger().warn(
      `[node] failed to find the previous block proposer ${consensus}: this should happen only if the proposer unbonded completely within a single block`,
    );
  }
  const voteMultiplier = DEC_ONE - proposerMultiplier - decFromWire(params.community_tax as string);
  for (const vote of votes) {
    const validator = await getValidatorByConsensusAddress(staking, ctx, vote.address);
    if (!validator) continue;
    const powerFraction = decQuoTruncate(decFromInt(vote.power), decFromInt(totalPower));
    const reward = decCoinsMulDecTruncate(decCoinsMulDecTruncate(fees, voteMultiplier), powerFraction);
    await allocateToValidator(ctx, validator, reward);
    remaining = decCoinsSub(remaining, reward);
  }
  setCommunityPool(ctx, decCoinsAdd(await getCommunityPool(ctx), remaining));
}

/** AllocateTokensToValidator: the commission share (rounded) to the commission, the rest to the current rewards; all of it outstanding. */
async function allocateToValidator(ctx: ExecContext, validator: ProtoMessage, tokens: DecCoin[]): Promise<void> {
  const operator = operatorBytes(validator, ctx);
  const rate = decFromWire(fieldText((((validator.commission ?? {}) as ProtoMessage).commission_rates as ProtoMessage | undefined)?.rate));
  const commission = decCoinsMulDec(tokens, rate);
  const shared = decCoinsSub(tokens, commission);
  const attributes = (amount: DecCoin[]) => [
    { key: "amount", value: formatDecCoins(amount) },
    { key: "validator", value: String(validator.operator_address) },
  ];
  ctx.emit({ type: "commission", attributes: attributes(commission) });
  setCommission(ctx, operator, decCoinsAdd(await getCommission(ctx, operator), commission));
  const current = await getCurrentRewards(ctx, operator);
  setCurrentRewards(ctx, operator, { ...current, rewards: decCoinsAdd(current.rewards, shared) });
  ctx.emit({ type: "rewards", attributes: attributes(tokens) });
  setOutstanding(ctx, operator, decCoinsAdd(await getOutstanding(ctx, operator), tokens));
}
