import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { KVStore } from "../../store/kv.js";
import type { ExecContext } from "../nodeModule.js";
import { activeQueueKey, depositsPrefix, inactiveQueueKey, proposalIdBytes, proposalKey } from "./keys.js";
import { concatBytes } from "../../store/keyEncoding.js";
import type { TimestampLike } from "../staking/keys.js";

/** Proposal records and their queues, for block execution (the gov keeper's proposal.go / queue helpers). */
export const gov = (ctx: ExecContext): KVStore => ctx.storeOf("gov");
const PROPOSAL = "core.gov.v1beta1.Proposal";

export async function getProposal(ctx: ExecContext, id: bigint): Promise<ProtoMessage | undefined> {
  const bytes = await gov(ctx).get(proposalKey(id));
  return bytes ? ctx.codec.type(PROPOSAL).decode(bytes) : undefined;
}

export function setProposal(ctx: ExecContext, proposal: ProtoMessage): void {
  gov(ctx).set(proposalKey(BigInt(String(proposal.proposal_id))), ctx.codec.type(PROPOSAL).encode(proposal).finish());
}

export const insertInactive = (ctx: ExecContext, id: bigint, end: TimestampLike) => gov(ctx).set(inactiveQueueKey(end, id), proposalIdBytes(id));
export const removeInactive = (ctx: ExecContext, id: bigint, end: TimestampLike) => gov(ctx).delete(inactiveQueueKey(end, id));
export const insertActive = (ctx: ExecContext, id: bigint, end: TimestampLike) => gov(ctx).set(activeQueueKey(end, id), proposalIdBytes(id));
export const removeActive = (ctx: ExecContext, id: bigint, end: TimestampLike) => gov(ctx).delete(activeQueueKey(end, id));

/** The deposits of a proposal with their full keys. */
export async function depositsOf(ctx: ExecContext, id: bigint): Promise<Array<{ key: Uint8Array; deposit: ProtoMessage }>> {
  const type = ctx.codec.type("core.gov.v1beta1.Deposit");
  const prefix = depositsPrefix(id);
  const out: Array<{ key: Uint8Array; deposit: ProtoMessage }> = [];
  for await (const [key, value] of gov(ctx).iterate(prefix)) out.push({ key: concatBytes(prefix, key), deposit: type.decode(value) });
  return out;
}
