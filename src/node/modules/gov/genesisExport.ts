import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { decodedAt, valuesUnder } from "../shared/exportReads.js";
import type { QueryContext } from "../nodeModule.js";
import { DEPOSITS_PREFIX, GOV_PARAMS, NEXT_PROPOSAL_ID_KEY, PROPOSALS_PREFIX, VOTES_PREFIX, paramsKey } from "./keys.js";

/** ExportGenesis of x/gov: the next proposal id, the three param sets, and every proposal, deposit and vote the store holds. */
export async function exportGovGenesis(ctx: QueryContext): Promise<ProtoMessage> {
  const { store } = ctx;
  const next = await store.get(NEXT_PROPOSAL_ID_KEY);
  return {
    starting_proposal_id: next ? new DataView(next.buffer, next.byteOffset, 8).getBigUint64(0).toString() : "1",
    deposits: await valuesUnder(store, DEPOSITS_PREFIX, ctx, "core.gov.v1beta1.Deposit"),
    votes: await valuesUnder(store, VOTES_PREFIX, ctx, "core.gov.v1beta1.Vote"),
    proposals: await valuesUnder(store, PROPOSALS_PREFIX, ctx, "core.gov.v1beta1.Proposal"),
    deposit_params: await decodedAt(store, paramsKey("depositparams"), ctx, GOV_PARAMS.depositparams),
    voting_params: await decodedAt(store, paramsKey("votingparams"), ctx, GOV_PARAMS.votingparams),
    tally_params: await decodedAt(store, paramsKey("tallyparams"), ctx, GOV_PARAMS.tallyparams),
  };
}
