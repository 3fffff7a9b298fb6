import { bech32Prefixes, moduleAddressBytes } from "../../../codec/addresses.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { coinsFromProto, formatCoins, getAllBalances, type Coin } from "../bank/keeper.js";
import type { ExecContext, ModuleContext } from "../nodeModule.js";
import { addressAt, coinsAt, fractionAt } from "../shared/genesisChecks.js";
import { GOV_PARAMS, NEXT_PROPOSAL_ID_KEY, activeQueueKey, depositKey, inactiveQueueKey, paramsKey, proposalIdBytes, proposalKey, voteKey } from "./keys.js";
import { ProposalStatus } from "./queries.js";
import { fieldText } from "../../../codec/fieldText.js";

export const GOV_ACCOUNT = "gov";

/** ValidateGenesis of x/gov (tally thresholds, min deposit) plus the references between proposals, deposits and votes. */
export function validateGovGenesis(state: ProtoMessage, ctx: ModuleContext): void {
  const tally = (state.tally_params ?? {}) as ProtoMessage;
  fractionAt(tally.quorum, "tally_params.quorum", "governance quorum");
  fractionAt(tally.threshold, "tally_params.threshold", "governance vote threshold");
  fractionAt(tally.veto_threshold, "tally_params.veto_threshold", "governance vote veto threshold");
  coinsAt(((state.deposit_params ?? {}) as ProtoMessage).min_deposit, "deposit_params.min_deposit", { dec: false });
  const ids = new Set<bigint>();
  ((state.proposals ?? []) as ProtoMessage[]).forEach((proposal, i) => {
    const id = BigInt(fieldText(proposal.proposal_id, "0"));
    if (id === 0n) throw new Error(`proposals[${i}].proposal_id: proposal id can not be 0`);
    if (ids.has(id)) throw new Error(`proposals[${i}].proposal_id: duplicate proposal ${id}`);
    ids.add(id);
    if (!proposal.content) throw new Error(`proposals[${i}].content: a proposal needs its content`);
    const status = Number(proposal.status ?? 0);
    if (status < ProposalStatus.depositPeriod || status > ProposalStatus.failed)
      throw new Error(`proposals[${i}].status: invalid proposal status PROPOSAL_STATUS_UNSPECIFIED`);
    coinsAt(proposal.total_deposit, `proposals[${i}].total_deposit`, { dec: false });
  });
  const starting = BigInt(fieldText(state.starting_proposal_id, "0"));
  const highest = [...ids].reduce((a, b) => (a > b ? a : b), 0n);
  if (starting <= highest) throw new Error(`starting_proposal_id: must be greater than every proposal id (${highest}), is ${starting}`);
  const account = bech32Prefixes(ctx.chain.bech32Prefix).account;
  const knownProposal = (value: unknown, path: string) => {
    const id = BigInt(fieldText(value, "0"));
    if (!ids.has(id)) throw new Error(`${path}: proposal ${id} is not in proposals`);
  };
  ((state.deposits ?? []) as ProtoMessage[]).forEach((deposit, i) => {
    knownProposal(deposit.proposal_id, `deposits[${i}].proposal_id`);
    addressAt(deposit.depositor, account, `deposits[${i}].depositor`);
    coinsAt(deposit.amount, `deposits[${i}].amount`, { dec: false });
  });
  ((state.votes ?? []) as ProtoMessage[]).forEach((vote, i) => {
    knownProposal(vote.proposal_id, `votes[${i}].proposal_id`);
    addressAt(vote.voter, account, `votes[${i}].voter`);
    const option = Number(vote.option ?? 0);
    if (option < 1 || option > 4) throw new Error(`votes[${i}].option: invalid vote option VOTE_OPTION_UNSPECIFIED`);
  });
}

/** InitGenesis of x/gov. As the real module, the gov module account must hold exactly the deposits. */
export async function initGovGenesis(state: ProtoMessage, ctx: ExecContext): Promise<void> {
  const { store, codec } = ctx;
  const account = bech32Prefixes(ctx.chain.bech32Prefix).account;
  store.set(NEXT_PROPOSAL_ID_KEY, proposalIdBytes(BigInt(fieldText(state.starting_proposal_id, "1"))));
  store.set(
    paramsKey("depositparams"),
    codec
      .type(GOV_PARAMS.depositparams)
      .encode(state.deposit_params ?? {})
      .finish(),
  );
  store.set(
    paramsKey("votingparams"),
    codec
      .type(GOV_PARAMS.votingparams)
      .encode(state.voting_params ?? {})
      .finish(),
  );
  store.set(
    paramsKey("tallyparams"),
    codec
      .type(GOV_PARAMS.tallyparams)
      .encode(state.tally_params ?? {})
      .finish(),
  );
  const totals = new Map<string, bigint>();
  const depositType = codec.type("core.gov.v1beta1.Deposit");
  for (const deposit of (state.deposits ?? []) as ProtoMessage[]) {
    store.set(depositKey(BigInt(String(deposit.proposal_id)), addressAt(deposit.depositor, account, "depositor")), depositType.encode(deposit).finish());
    for (const coin of coinsFromProto(deposit.amount)) totals.set(coin.denom, (totals.get(coin.denom) ?? 0n) + coin.amount);
  }
  const voteType = codec.type("core.gov.v1beta1.Vote");
  for (const vote of (state.votes ?? []) as ProtoMessage[]) {
    store.set(voteKey(BigInt(String(vote.proposal_id)), addressAt(vote.voter, account, "voter")), voteType.encode(vote).finish());
  }
  const proposalType = codec.type("core.gov.v1beta1.Proposal");
  for (const proposal of (state.proposals ?? []) as ProtoMessage[]) {
    const id = BigInt(String(proposal.proposal_id));
    if (proposal.status === ProposalStatus.depositPeriod) store.set(inactiveQueueKey(proposal.deposit_end_time as ProtoMessage, id), proposalIdBytes(id));
    if (proposal.status === ProposalStatus.votingPeriod) store.set(activeQueueKey(proposal.voting_end_time as ProtoMessage, id), proposalIdBytes(id));
    store.set(proposalKey(id), proposalType.encode(proposal).finish());
  }
  const deposits: Coin[] = [...totals].map(([denom, amount]) => ({ denom, amount }));
  const balance = formatCoins(await getAllBalances(ctx.storeOf("bank"), moduleAddressBytes(GOV_ACCOUNT)));
  if (balance !== formatCoins(deposits)) throw new Error(`gov genesis: expected module account was ${balance} but we got ${formatCoins(deposits)}`);
}
