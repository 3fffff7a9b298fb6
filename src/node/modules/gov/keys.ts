import { concatBytes } from "../../store/keyEncoding.js";
import { namedParamsKey } from "../shared/paramsKey.js";
import { formatTimeBytes, addressPart, type TimestampLike } from "../staking/keys.js";

/**
 * Store layout of x/gov in v0.41 (cosmos-sdk v0.41.x x/gov/types/keys.go), addresses as they are:
 *
 *   0x00 | proposal id (8, BE)               → Proposal
 *   0x01 | voting end time | proposal id      → proposal id (active proposal queue)
 *   0x02 | deposit end time | proposal id     → proposal id (inactive proposal queue)
 *   0x03                                      → next proposal id (8, BE)
 *   0x10 | proposal id | depositor      → Deposit
 *   0x20 | proposal id | voter          → Vote
 */
export const PROPOSALS_PREFIX = Uint8Array.of(0x00);
const ACTIVE_QUEUE_PREFIX = Uint8Array.of(0x01);
const INACTIVE_QUEUE_PREFIX = Uint8Array.of(0x02);
export const NEXT_PROPOSAL_ID_KEY = Uint8Array.of(0x03);
export const DEPOSITS_PREFIX = Uint8Array.of(0x10);
export const VOTES_PREFIX = Uint8Array.of(0x20);

export function proposalIdBytes(id: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, id);
  return out;
}

export const proposalKey = (id: bigint) => concatBytes(PROPOSALS_PREFIX, proposalIdBytes(id));
export const activeQueueKey = (end: TimestampLike, id: bigint) => concatBytes(ACTIVE_QUEUE_PREFIX, formatTimeBytes(end), proposalIdBytes(id));
export const inactiveQueueKey = (end: TimestampLike, id: bigint) => concatBytes(INACTIVE_QUEUE_PREFIX, formatTimeBytes(end), proposalIdBytes(id));
export const depositsPrefix = (id: bigint) => concatBytes(DEPOSITS_PREFIX, proposalIdBytes(id));
export const depositKey = (id: bigint, depositor: Uint8Array) => concatBytes(depositsPrefix(id), addressPart(depositor));
export const votesPrefix = (id: bigint) => concatBytes(VOTES_PREFIX, proposalIdBytes(id));
export const voteKey = (id: bigint, voter: Uint8Array) => concatBytes(votesPrefix(id), addressPart(voter));

/** The x/params keys of the gov subspace, with their types. */
export const GOV_PARAMS = {
  depositparams: "core.gov.v1beta1.DepositParams",
  votingparams: "core.gov.v1beta1.VotingParams",
  tallyparams: "core.gov.v1beta1.TallyParams",
} as const;
export type GovParamKey = keyof typeof GOV_PARAMS;

/** v0.41 keeps these in the params store ("gov/depositparams", …); here: hidden keys of this store. */
export const paramsKey = (key: GovParamKey) => namedParamsKey(key);
