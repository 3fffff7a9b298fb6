import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { paginate, type PageRequest } from "../../abci/paginate.js";
import { invalidArgument, notFound } from "../../abci/queryError.js";
import type { KVReader } from "../../store/kv.js";
import { accountAddressParam } from "../shared/addressField.js";
import type { ModuleContext, QueryContext, QueryHandler } from "../nodeModule.js";
import { GOV_PARAMS, PROPOSALS_PREFIX, depositKey, depositsPrefix, paramsKey, proposalKey, voteKey, votesPrefix, type GovParamKey } from "./keys.js";
import { tallyProposal } from "./tally.js";
import { fieldText } from "../../../codec/fieldText.js";

export const ProposalStatus = { depositPeriod: 1, votingPeriod: 2, passed: 3, rejected: 4, failed: 5 } as const;

const T = {
  proposal: "core.gov.v1beta1.Proposal",
  deposit: "core.gov.v1beta1.Deposit",
  vote: "core.gov.v1beta1.Vote",
};

export async function readGovParams(store: KVReader, key: GovParamKey, ctx: ModuleContext): Promise<ProtoMessage> {
  const bytes = await store.get(paramsKey(key));
  return bytes ? ctx.codec.type(GOV_PARAMS[key]).decode(bytes) : {};
}

function proposalId(request: ProtoMessage): bigint {
  const id = BigInt(fieldText(request.proposal_id, "0"));
  if (id === 0n) throw invalidArgument("proposal id can not be 0");
  return id;
}

async function getProposal(ctx: QueryContext, id: bigint): Promise<ProtoMessage | undefined> {
  const bytes = await ctx.store.get(proposalKey(id));
  return bytes ? ctx.codec.type(T.proposal).decode(bytes) : undefined;
}

/** The query service of x/gov, with the real module's filters and messages. */
export const govQueries: Record<string, QueryHandler> = {
  async Proposal(request, ctx) {
    const id = proposalId(request);
    const proposal = await getProposal(ctx, id);
    if (!proposal) throw notFound(`proposal ${id} doesn't exist`);
    return { proposal };
  },

  /** Filters: status (unless unspecified), voter and depositor (the proposal has their vote / deposit). */
  async Proposals(request, ctx) {
    const status = Number(request.proposal_status ?? 0);
    const voter = fieldText(request.voter) === "" ? undefined : accountAddressParam(request.voter, "voter", ctx);
    const depositor = fieldText(request.depositor) === "" ? undefined : accountAddressParam(request.depositor, "depositor", ctx);
    const type = ctx.codec.type(T.proposal);
    const result = await paginate(ctx.store, PROPOSALS_PREFIX, request.pagination as PageRequest, async (_key, value) => {
      const proposal = type.decode(value) as unknown as ProtoMessage;
      const id = BigInt(fieldText(proposal.proposal_id, "0"));
      if (status >= ProposalStatus.depositPeriod && status <= ProposalStatus.failed && proposal.status !== status) return undefined;
      if (voter && !(await ctx.store.get(voteKey(id, voter)))) return undefined;
      if (depositor && !(await ctx.store.get(depositKey(id, depositor)))) return undefined;
      return proposal;
    });
    return { proposals: result.items, pagination: result.pagination };
  },

  async Vote(request, ctx) {
    const id = proposalId(request);
    if (fieldText(request.voter) === "") throw invalidArgument("empty voter address");
    const bytes = await ctx.store.get(voteKey(id, accountAddressParam(request.voter, "voter", ctx)));
    if (!bytes) throw invalidArgument(`voter: ${String(request.voter)} not found for proposal: ${id}`);
    return { vote: ctx.codec.type(T.vote).decode(bytes) };
  },

  async Votes(request, ctx) {
    const type = ctx.codec.type(T.vote);
    const result = await paginate(ctx.store, votesPrefix(proposalId(request)), request.pagination as PageRequest, (_key, value) => type.decode(value));
    return { votes: result.items, pagination: result.pagination };
  },

  /** Only the requested set is filled in; the other two stay empty, as in the real answer. */
  async Params(request, ctx) {
    switch (fieldText(request.params_type)) {
      case "deposit":
        return { deposit_params: await readGovParams(ctx.store, "depositparams", ctx) };
      case "voting":
        return { voting_params: await readGovParams(ctx.store, "votingparams", ctx) };
      case "tallying":
        return { tally_params: await readGovParams(ctx.store, "tallyparams", ctx) };
      default:
        throw invalidArgument(`${fieldText(request.params_type)} is not a valid parameter type`);
    }
  },

  async Deposit(request, ctx) {
    const id = proposalId(request);
    if (fieldText(request.depositor) === "") throw invalidArgument("empty depositor address");
    const bytes = await ctx.store.get(depositKey(id, accountAddressParam(request.depositor, "depositor", ctx)));
    if (!bytes) throw invalidArgument(`depositer: ${String(request.depositor)} not found for proposal: ${id}`);
    return { deposit: ctx.codec.type(T.deposit).decode(bytes) };
  },

  async Deposits(request, ctx) {
    const type = ctx.codec.type(T.deposit);
    const result = await paginate(ctx.store, depositsPrefix(proposalId(request)), request.pagination as PageRequest, (_key, value) => type.decode(value));
    return { deposits: result.items, pagination: result.pagination };
  },

  /** Deposit period: empty; passed or rejected: the stored final tally; otherwise counted now from the votes. */
  async TallyResult(request, ctx) {
    const id = proposalId(request);
    const proposal = await getProposal(ctx, id);
    if (!proposal) throw notFound(`proposal ${id} doesn't exist`);
    switch (proposal.status) {
      case ProposalStatus.depositPeriod:
        return { tally: { yes: "0", abstain: "0", no: "0", no_with_veto: "0" } };
      case ProposalStatus.passed:
      case ProposalStatus.rejected:
        return { tally: proposal.final_tally_result ?? {} };
      default:
        return { tally: await tallyProposal(ctx.store, ctx.storeOf("staking"), id, ctx) };
    }
  },
};
