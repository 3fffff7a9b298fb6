import { moduleAddress, moduleAddressBytes } from "../../../codec/addresses.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { concatBytes } from "../../store/keyEncoding.js";
import { burnCoins, coinsFromProto, getBalance, sendCoins } from "../bank/keeper.js";
import type { ExecContext } from "../nodeModule.js";
import { decFromInt, decFromWire, decQuo } from "../shared/decMath.js";
import { toTimestamp } from "../shared/genesisChecks.js";
import { bondDenom } from "../staking/keeper.js";
import { BONDED_POOL } from "../staking/genesis.js";
import { formatTimeBytes } from "../staking/keys.js";
import { cacheContext } from "./cacheContext.js";
import { GOV_ACCOUNT } from "./genesis.js";
import { proposalKey, votesPrefix } from "./keys.js";
import { ProposalStatus, readGovParams } from "./queries.js";
import { depositsOf, getProposal, gov, removeActive, removeInactive, setProposal } from "./store.js";
import { countsToProto, tallyInputs, tallyPowers, truncatedCounts, VoteOption } from "./tally.js";
import { decodeContent } from "./proposalContent.js";
import { processLogger } from "../../../telemetry/processLogger.js";

/** EndBlocker of x/gov (v0.41 abci.go): ends deposit periods and voting periods whose time has come. */
export async function govEndBlock(ctx: ExecContext): Promise<void> {
  for (const id of await dueProposals(ctx, Uint8Array.of(0x02))) {
    const proposal = (await getProposal(ctx, id))!;
    removeInactive(ctx, id, proposal.deposit_end_time as ProtoMessage);
    removeActive(ctx, id, proposal.voting_end_time as ProtoMessage);
    gov(ctx).delete(proposalKey(id));
    await burnDeposits(ctx, id);
    ctx.emit({
      type: "inactive_proposal",
      attributes: [
        { key: "proposal_id", value: id.toString() },
        { key: "proposal_result", value: "proposal_dropped" },
      ],
    });
  }
  for (const id of await dueProposals(ctx, Uint8Array.of(0x01))) {
    const proposal = (await getProposal(ctx, id))!;
    const { passes, burn, tally } = await tallyProposalVotes(ctx, id);
    if (burn) await burnDeposits(ctx, id);
    else await refundDeposits(ctx, id);
    let result: string;
    if (passes) {
      const cache = cacheContext(ctx);
      try {
        const { kind, content } = decodeContent(proposal.content, ctx);
        await kind.execute(cache.ctx, content);
        cache.write();
        cache.events.forEach((event) => ctx.emit(event));
        proposal.status = ProposalStatus.passed;
        result = "proposal_passed";
      } catch (err) {
        processLogger().error(`[node] proposal ${id} passed, but failed on execution: ${(err as Error).message}`);
        proposal.status = ProposalStatus.failed;
        result = "proposal_failed";
      }
    } else {
      proposal.status = ProposalStatus.rejected;
      result = "proposal_rejected";
    }
    proposal.final_tally_result = tally;
    setProposal(ctx, proposal);
    removeActive(ctx, id, proposal.voting_end_time as ProtoMessage);
    ctx.emit({
      type: "active_proposal",
      attributes: [
        { key: "proposal_id", value: id.toString() },
        { key: "proposal_result", value: result },
      ],
    });
  }
}

/** The ids in a proposal queue (0x01 active, 0x02 inactive) whose end time is not after the block time. */
async function dueProposals(ctx: ExecContext, prefix: Uint8Array): Promise<bigint[]> {
  const now = new TextDecoder().decode(formatTimeBytes(toTimestamp(ctx.time)));
  const ids: bigint[] = [];
  for await (const [key, value] of gov(ctx).iterate(prefix)) {
    if (new TextDecoder().decode(key.subarray(0, key.length - 8)) > now) break;
    ids.push(new DataView(value.buffer, value.byteOffset, 8).getBigUint64(0));
  }
  return ids;
}

/**
 * Keeper.Tally: counts the votes (and deletes them); no bonded tokens → fails
 * and refunds; below quorum → fails and burns; all abstain → fails; vetoes
 * above the veto threshold → fails and burns; yes above the threshold of
 * non-abstaining power → passes.
 */
async function tallyProposalVotes(ctx: ExecContext, id: bigint): Promise<{ passes: boolean; burn: boolean; tally: ProtoMessage }> {
  const { validators, votes } = await tallyInputs(gov(ctx), ctx.storeOf("staking"), id, ctx);
  const powers = tallyPowers(validators, votes);
  const voteKeys: Uint8Array[] = [];
  for await (const [key] of gov(ctx).iterate(votesPrefix(id))) voteKeys.push(concatBytes(votesPrefix(id), key));
  voteKeys.forEach((key) => gov(ctx).delete(key));
  const tally = countsToProto(truncatedCounts(powers));
  const params = await readGovParams(gov(ctx), "tallyparams", ctx);
  const bonded = await getBalance(ctx.storeOf("bank"), moduleAddressBytes(BONDED_POOL), await bondDenom(ctx.storeOf("staking"), ctx));
  if (bonded === 0n) return { passes: false, burn: false, tally };
  const result = (option: number) => powers.results.get(option) ?? 0n;
  if (decQuo(powers.total, decFromInt(bonded)) < decFromWire(params.quorum as string)) return { passes: false, burn: true, tally };
  const nonAbstaining = powers.total - result(VoteOption.abstain);
  if (nonAbstaining === 0n) return { passes: false, burn: false, tally };
  if (decQuo(result(VoteOption.noWithVeto), powers.total) > decFromWire(params.veto_threshold as string)) return { passes: false, burn: true, tally };
  if (decQuo(result(VoteOption.yes), nonAbstaining) > decFromWire(params.threshold as string)) return { passes: true, burn: false, tally };
  return { passes: false, burn: false, tally };
}

/** DeleteDeposits: the deposits are burned from the gov account. */
async function burnDeposits(ctx: ExecContext, id: bigint): Promise<void> {
  const prefix = ctx.chain.bech32Prefix;
  for (const { key, deposit } of await depositsOf(ctx, id)) {
    await burnCoins(ctx, moduleAddress(prefix, GOV_ACCOUNT), coinsFromProto(deposit.amount));
    gov(ctx).delete(key);
  }
}

/** RefundDeposits: each deposit goes back to its depositor. */
async function refundDeposits(ctx: ExecContext, id: bigint): Promise<void> {
  const prefix = ctx.chain.bech32Prefix;
  for (const { key, deposit } of await depositsOf(ctx, id)) {
    await sendCoins(ctx, moduleAddress(prefix, GOV_ACCOUNT), String(deposit.depositor), coinsFromProto(deposit.amount));
    gov(ctx).delete(key);
  }
}
