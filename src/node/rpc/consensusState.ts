import type { CommittedHeight, RpcValidator } from "../chain/blockStore.js";

/**
 * The consensus engine's `consensus_state` and `dump_consensus_state`
 * (0.34 shapes) for the embedded node's single-validator rounds: between
 * blocks the node waits in round 0 of the next height at the new-round step,
 * with no proposal and no votes yet; the last commit is the one that sealed
 * the latest block.
 */
const STEP_NEW_ROUND = 2;

/** The engine's BitArray.String() then the voted power: "BA{1:x} 10/10 = 1.00". */
function bitArrayText(voted: boolean[], powers: bigint[]): string {
  const total = powers.reduce((a, b) => a + b, 0n);
  const yes = powers.reduce((sum, power, i) => (voted[i] ? sum + power : sum), 0n);
  const fraction = total === 0n ? 0 : Number((yes * 10_000n) / total) / 10_000;
  return `BA{${voted.length}:${voted.map((v) => (v ? "x" : "_")).join("")}} ${yes}/${total} = ${fraction.toFixed(2)}`;
}

/** tmbytes.Fingerprint: the first 6 bytes, uppercase hex. */
const fingerprint = (hex: string) => hex.slice(0, 12).toUpperCase().padEnd(12, "0");

function roundVotes(validators: RpcValidator[]) {
  const powers = validators.map((v) => BigInt(v.voting_power));
  const none = validators.map(() => false);
  const nilVotes = validators.map(() => "nil-Vote");
  return [
    {
      round: 0,
      prevotes: nilVotes,
      prevotes_bit_array: bitArrayText(none, powers),
      precommits: nilVotes,
      precommits_bit_array: bitArrayText(none, powers),
    },
  ];
}

function lastCommit(latest: CommittedHeight) {
  const powers = latest.validators.map((v) => BigInt(v.voting_power));
  const signatures = latest.commit.signatures;
  const votes = signatures.map((sig, index) =>
    sig.signature
      ? `Vote{${index}:${fingerprint(sig.validator_address)} ${latest.commit.height}/${String(latest.commit.round).padStart(2, "0")}/SIGNED_MSG_TYPE_PRECOMMIT(Precommit) ` +
        `${fingerprint(latest.commit.block_id.hash)} ${fingerprint(Buffer.from(sig.signature, "base64").toString("hex"))} @ ${sig.timestamp}}`
      : "nil-Vote",
  );
  return {
    votes,
    votes_bit_array: bitArrayText(
      signatures.map((s) => Boolean(s.signature)),
      powers,
    ),
    peer_maj_23s: {},
  };
}

const validatorSet = (validators: RpcValidator[]) => ({ validators, proposer: validators[0] ?? null });

export function consensusState(latest: CommittedHeight) {
  const header = latest.block.block.header;
  return {
    round_state: {
      "height/round/step": `${Number(header.height) + 1}/0/${STEP_NEW_ROUND}`,
      start_time: header.time,
      proposal_block_hash: "",
      locked_block_hash: "",
      valid_block_hash: "",
      height_vote_set: roundVotes(latest.validators),
      proposer: { address: latest.validators[0]?.address ?? "", index: 0 },
    },
  };
}

export function dumpConsensusState(latest: CommittedHeight) {
  const header = latest.block.block.header;
  const validators = validatorSet(latest.validators);
  return {
    round_state: {
      height: String(Number(header.height) + 1),
      round: 0,
      step: STEP_NEW_ROUND,
      start_time: header.time,
      commit_time: header.time,
      validators,
      proposal: null,
      proposal_block: null,
      proposal_block_parts: null,
      locked_round: -1,
      locked_block: null,
      locked_block_parts: null,
      valid_round: -1,
      valid_block: null,
      valid_block_parts: null,
      votes: roundVotes(latest.validators),
      commit_round: -1,
      last_commit: lastCommit(latest),
      last_validators: validators,
      triggered_timeout_precommit: false,
    },
    peers: [],
  };
}
