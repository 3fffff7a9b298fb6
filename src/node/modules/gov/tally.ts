import { bech32Prefixes } from "../../../codec/addresses.js";
import { decodeBech32Address, encodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { KVReader } from "../../store/kv.js";
import type { ModuleContext } from "../nodeModule.js";
import { decMulInt, decQuo, decTruncateInt, decFromWire } from "../shared/decMath.js";
import { bondedValidatorsByPower, delegationsOf, validatorShares, validatorTokens } from "../staking/keeper.js";
import { votesPrefix } from "./keys.js";

export const VoteOption = { yes: 1, abstain: 2, no: 3, noWithVeto: 4 } as const;

export interface TallyValidator {
  operator: string;
  bondedTokens: bigint;
  /** Dec */
  delegatorShares: bigint;
}

export interface TallyVote {
  option: number;
  /** The voter's address as an operator address: a validator votes through its operator account. */
  operator: string;
  delegations: Array<{ validator: string; shares: bigint }>;
}

export interface TallyCounts {
  yes: bigint;
  abstain: bigint;
  no: bigint;
  noWithVeto: bigint;
}

/** The voting power per option and in total, as Decs (before the final truncation). */
export interface TallyPowers {
  results: Map<number, bigint>;
  total: bigint;
}

/**
 * The tally of x/gov (keeper/tally.go, v0.41): each voter votes with its
 * delegations to bonded validators (shares ÷ validator shares × bonded
 * tokens); a validator that voted adds the power of the shares whose
 * delegators did not vote themselves. Amounts are Decs until the final
 * truncation to whole tokens.
 */
export function tallyPowers(validators: TallyValidator[], votes: TallyVote[]): TallyPowers {
  const results = new Map<number, bigint>([1, 2, 3, 4].map((o) => [o, 0n]));
  let total = 0n;
  const current = new Map(validators.map((v) => [v.operator, { ...v, deductions: 0n, vote: 0 }]));
  for (const vote of votes) {
    const own = current.get(vote.operator);
    if (own) own.vote = vote.option;
    for (const delegation of vote.delegations) {
      const validator = current.get(delegation.validator);
      if (!validator) continue;
      validator.deductions += delegation.shares;
      const power = decMulInt(decQuo(delegation.shares, validator.delegatorShares), validator.bondedTokens);
      results.set(vote.option, (results.get(vote.option) ?? 0n) + power);
      total += power;
    }
  }
  for (const validator of current.values()) {
    if (validator.vote === 0) continue;
    const fraction = decQuo(validator.delegatorShares - validator.deductions, validator.delegatorShares);
    const power = decMulInt(fraction, validator.bondedTokens);
    results.set(validator.vote, (results.get(validator.vote) ?? 0n) + power);
    total += power;
  }
  return { results, total };
}

/** NewTallyResultFromMap: each option's power truncated to whole tokens. */
export function tally(validators: TallyValidator[], votes: TallyVote[]): TallyCounts {
  return truncatedCounts(tallyPowers(validators, votes));
}

export function truncatedCounts({ results }: TallyPowers): TallyCounts {
  const truncated = (option: number) => decTruncateInt(results.get(option) ?? 0n);
  return { yes: truncated(VoteOption.yes), abstain: truncated(VoteOption.abstain), no: truncated(VoteOption.no), noWithVeto: truncated(VoteOption.noWithVeto) };
}

/** The tally's votes and bonded validators from the state. */
export async function tallyInputs(
  gov: KVReader,
  staking: KVReader,
  proposalId: bigint,
  ctx: ModuleContext,
): Promise<{ validators: TallyValidator[]; votes: TallyVote[] }> {
  const validators = (await bondedValidatorsByPower(staking, ctx)).map((v) => ({
    operator: String(v.operator_address),
    bondedTokens: validatorTokens(v),
    delegatorShares: validatorShares(v),
  }));
  const voteType = ctx.codec.type("core.gov.v1beta1.Vote");
  const prefixes = bech32Prefixes(ctx.chain.bech32Prefix);
  const votes: TallyVote[] = [];
  for await (const [, value] of gov.iterate(votesPrefix(proposalId))) {
    const vote = voteType.decode(value) as unknown as ProtoMessage;
    const voter = decodeBech32Address(String(vote.voter), prefixes.account, "voter");
    votes.push({
      option: Number(vote.option ?? 0),
      operator: encodeBech32Address(prefixes.validatorOperator, voter),
      delegations: (await delegationsOf(staking, ctx, voter)).map((d) => ({ validator: String(d.validator_address), shares: decFromWire(d.shares as string) })),
    });
  }
  return { validators, votes };
}

export const countsToProto = (counts: TallyCounts): ProtoMessage => ({
  yes: counts.yes.toString(),
  abstain: counts.abstain.toString(),
  no: counts.no.toString(),
  no_with_veto: counts.noWithVeto.toString(),
});

/** The current tally of a proposal from its votes and the staking state. */
export async function tallyProposal(gov: KVReader, staking: KVReader, proposalId: bigint, ctx: ModuleContext): Promise<ProtoMessage> {
  const { validators, votes } = await tallyInputs(gov, staking, proposalId, ctx);
  return countsToProto(tally(validators, votes));
}
