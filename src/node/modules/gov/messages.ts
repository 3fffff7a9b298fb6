import { moduleAddress } from "../../../codec/addresses.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { sdkError, TxError } from "../../abci/txError.js";
import { coinsFromProto, coinsToProto, formatCoins, sendCoins, type Coin } from "../bank/keeper.js";
import type { ExecContext, MsgRoute } from "../nodeModule.js";
import { toTimestamp } from "../shared/genesisChecks.js";
import { durationMs, ZERO_TIMESTAMP } from "../shared/goTime.js";
import { accountBytes, accountSigner, isEmpty } from "../shared/msgAddresses.js";
import { cacheContext } from "./cacheContext.js";
import { isAllGTE, validCoinsOrEmpty } from "../shared/coinChecks.js";
import { govError } from "./errors.js";
import { GOV_ACCOUNT } from "./genesis.js";
import { NEXT_PROPOSAL_ID_KEY, depositKey, proposalIdBytes, voteKey } from "./keys.js";
import { ProposalStatus, readGovParams } from "./queries.js";
import { getProposal, gov, insertActive, insertInactive, removeInactive, setProposal } from "./store.js";
import { decodeContent, validateContent, type ContentKind } from "./proposalContent.js";
import { fieldText } from "../../../codec/fieldText.js";

/** The Msgs of x/gov (v0.41 msgs.go ValidateBasic, keeper/msg_server.go, deposit.go, vote.go), with the real errors and events. */

const VOTE_OPTION_NAMES = ["VOTE_OPTION_UNSPECIFIED", "VOTE_OPTION_YES", "VOTE_OPTION_ABSTAIN", "VOTE_OPTION_NO", "VOTE_OPTION_NO_WITH_VETO"];
const PANIC_CODE = 111222;

const message = (ctx: ExecContext, sender: unknown) =>
  ctx.emit({
    type: "message",
    attributes: [
      { key: "module", value: "gov" },
      { key: "sender", value: String(sender) },
    ],
  });

/** Coins.Add: merged by denom, sorted. */
function addCoinLists(a: Coin[], b: Coin[]): Coin[] {
  const sum = new Map<string, bigint>();
  for (const coin of [...a, ...b]) sum.set(coin.denom, (sum.get(coin.denom) ?? 0n) + coin.amount);
  return [...sum]
    .filter(([, amount]) => amount !== 0n)
    .sort(([x], [y]) => (x < y ? -1 : 1))
    .map(([denom, amount]) => ({ denom, amount }));
}

/**
 * Keeper.SubmitProposal: the content's handler must succeed on a throwaway
 * copy of the state; the proposal then waits for deposits until the end of
 * the deposit period.
 */
async function submitProposal(ctx: ExecContext, kind: ContentKind, content: ProtoMessage, any: ProtoMessage): Promise<ProtoMessage> {
  try {
    await kind.execute(cacheContext(ctx).ctx, content);
  } catch (err) {
    if (err instanceof TxError && err.code !== PANIC_CODE) throw govError("invalidProposalContent", err.message);
    throw err;
  }
  const idBytes = await gov(ctx).get(NEXT_PROPOSAL_ID_KEY);
  const id = idBytes ? new DataView(idBytes.buffer, idBytes.byteOffset, 8).getBigUint64(0) : 1n;
  const depositParams = await readGovParams(gov(ctx), "depositparams", ctx);
  const proposal: ProtoMessage = {
    proposal_id: id.toString(),
    content: any,
    status: ProposalStatus.depositPeriod,
    final_tally_result: { yes: "0", abstain: "0", no: "0", no_with_veto: "0" },
    submit_time: toTimestamp(ctx.time),
    deposit_end_time: toTimestamp(new Date(ctx.time.getTime() + durationMs(depositParams.max_deposit_period))),
    total_deposit: [],
    voting_start_time: ZERO_TIMESTAMP,
    voting_end_time: ZERO_TIMESTAMP,
  };
  setProposal(ctx, proposal);
  insertInactive(ctx, id, proposal.deposit_end_time as ProtoMessage);
  gov(ctx).set(NEXT_PROPOSAL_ID_KEY, proposalIdBytes(id + 1n));
  ctx.emit({ type: "submit_proposal", attributes: [{ key: "proposal_id", value: id.toString() }] });
  return proposal;
}

/** Keeper.AddDeposit: returns whether the deposit started the voting period. */
async function addDeposit(ctx: ExecContext, id: bigint, depositor: string, amount: Coin[]): Promise<boolean> {
  const proposal = await getProposal(ctx, id);
  if (!proposal) throw govError("unknownProposal", id.toString());
  if (proposal.status !== ProposalStatus.depositPeriod && proposal.status !== ProposalStatus.votingPeriod) throw govError("inactiveProposal", id.toString());
  await sendCoins(ctx, depositor, moduleAddress(ctx.chain.bech32Prefix, GOV_ACCOUNT), amount);
  const total = addCoinLists(coinsFromProto(proposal.total_deposit), amount);
  proposal.total_deposit = coinsToProto(total);
  setProposal(ctx, proposal);
  const minDeposit = coinsFromProto((await readGovParams(gov(ctx), "depositparams", ctx)).min_deposit);
  let activated = false;
  if (proposal.status === ProposalStatus.depositPeriod && isAllGTE(total, minDeposit)) {
    await activateVotingPeriod(ctx, proposal);
    activated = true;
  }
  const key = depositKey(id, accountBytes(depositor, ctx));
  const type = ctx.codec.type("core.gov.v1beta1.Deposit");
  const existing = await gov(ctx).get(key);
  const previous = existing ? coinsFromProto((type.decode(existing) as unknown as ProtoMessage).amount) : [];
  ctx.emit({
    type: "proposal_deposit",
    attributes: [
      { key: "amount", value: formatCoins(amount) },
      { key: "proposal_id", value: id.toString() },
    ],
  });
  gov(ctx).set(key, type.encode({ proposal_id: id.toString(), depositor, amount: coinsToProto(addCoinLists(previous, amount)) }).finish());
  return activated;
}

async function activateVotingPeriod(ctx: ExecContext, proposal: ProtoMessage): Promise<void> {
  const votingPeriod = (await readGovParams(gov(ctx), "votingparams", ctx)).voting_period;
  const id = BigInt(String(proposal.proposal_id));
  proposal.voting_start_time = toTimestamp(ctx.time);
  proposal.voting_end_time = toTimestamp(new Date(ctx.time.getTime() + durationMs(votingPeriod)));
  proposal.status = ProposalStatus.votingPeriod;
  setProposal(ctx, proposal);
  removeInactive(ctx, id, proposal.deposit_end_time as ProtoMessage);
  insertActive(ctx, id, proposal.voting_end_time as ProtoMessage);
}

/** Coins.IsValid and no negative amount, else ErrInvalidCoins. */
function depositCoins(value: unknown): void {
  validCoinsOrEmpty(value);
}

export const govMessages: Record<string, MsgRoute> = {
  "core.gov.v1beta1.MsgSubmitProposal": {
    action: "submit_proposal",
    signers: (msg, chain) => [accountSigner(msg.proposer, chain.bech32Prefix)],
    validateBasic(msg, chain, codec) {
      if (isEmpty(msg, "proposer")) throw sdkError("invalidAddress", "");
      depositCoins(msg.initial_deposit);
      if (!msg.content) throw govError("invalidProposalContent", "missing content");
      const { kind, content } = decodeContent(msg.content, { chain, codec });
      validateContent(kind, content);
    },
    async handler(msg, ctx) {
      const { kind, content } = decodeContent(msg.content, ctx);
      const proposal = await submitProposal(ctx, kind, content, msg.content as ProtoMessage);
      const id = BigInt(String(proposal.proposal_id));
      const votingStarted = await addDeposit(ctx, id, String(msg.proposer), coinsFromProto(msg.initial_deposit));
      message(ctx, msg.proposer);
      const attributes = [{ key: "proposal_type", value: kind.proposalType }];
      if (votingStarted) attributes.push({ key: "voting_period_start", value: id.toString() });
      ctx.emit({ type: "submit_proposal", attributes });
      return { proposal_id: id.toString() };
    },
  },

  "core.gov.v1beta1.MsgDeposit": {
    action: "deposit",
    signers: (msg, chain) => [accountSigner(msg.depositor, chain.bech32Prefix)],
    validateBasic(msg) {
      if (isEmpty(msg, "depositor")) throw sdkError("invalidAddress", "");
      depositCoins(msg.amount);
    },
    async handler(msg, ctx) {
      accountBytes(msg.depositor, ctx);
      const id = BigInt(fieldText(msg.proposal_id, "0"));
      const votingStarted = await addDeposit(ctx, id, String(msg.depositor), coinsFromProto(msg.amount));
      message(ctx, msg.depositor);
      if (votingStarted) ctx.emit({ type: "proposal_deposit", attributes: [{ key: "voting_period_start", value: id.toString() }] });
      return {};
    },
  },

  "core.gov.v1beta1.MsgVote": {
    action: "vote",
    signers: (msg, chain) => [accountSigner(msg.voter, chain.bech32Prefix)],
    validateBasic(msg) {
      if (isEmpty(msg, "voter")) throw sdkError("invalidAddress", "");
      const option = Number(msg.option ?? 0);
      if (option < 1 || option > 4) throw govError("invalidVote", VOTE_OPTION_NAMES[option] ?? String(option));
    },
    async handler(msg, ctx) {
      const voter = accountBytes(msg.voter, ctx);
      const id = BigInt(fieldText(msg.proposal_id, "0"));
      const proposal = await getProposal(ctx, id);
      if (!proposal) throw govError("unknownProposal", id.toString());
      if (proposal.status !== ProposalStatus.votingPeriod) throw govError("inactiveProposal", id.toString());
      const option = Number(msg.option);
      gov(ctx).set(voteKey(id, voter), ctx.codec.type("core.gov.v1beta1.Vote").encode({ proposal_id: id.toString(), voter: msg.voter, option }).finish());
      ctx.emit({
        type: "proposal_vote",
        attributes: [
          { key: "option", value: VOTE_OPTION_NAMES[option]! },
          { key: "proposal_id", value: id.toString() },
        ],
      });
      message(ctx, msg.voter);
      return {};
    },
  },
};
