import { sha256 } from "@noble/hashes/sha2.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import { utf8 } from "../../store/moduleStore.js";
import type { DevGenesisContext } from "../devGenesisContext.js";
import { uint64Value } from "./host/hostPaths.js";
import { acknowledgementCommitment, fungibleTokenPacketData, packetCommitment, SUCCESS_ACKNOWLEDGEMENT } from "./channel/packetCommitment.js";

/**
 * The "ibc" entry of the development genesis: this chain as if it had been
 * connected to a counterparty chain "peer-1" for a while. One 07-tendermint
 * client of the peer with two consensus states, an OPEN connection and an OPEN
 * unordered ICS-20 channel transfer/channel-0 on it; packets 2 and 3 sent by
 * account 0 and not yet acknowledged (their commitments), packet 1 received from
 * the peer (its receipt and acknowledgement).
 */
const PEER_CHAIN_ID = "peer-1";
const CLIENT = "07-tendermint-0";
const CONNECTION = "connection-0";
const PORT = "transfer";
const CHANNEL = "channel-0";
const CONSENSUS_HEIGHTS = [1000n, 1200n];
const BLOCK_SECONDS = 5n;

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const height = (revisionHeight: bigint) => ({ revision_number: "1", revision_height: revisionHeight.toString() });
/** RFC 3339 with whole seconds, as the gateway renders such a timestamp. */
const rfc3339 = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString().replace(".000Z", "Z");

/** ics23 proof specs of the SDK's stores (IAVL, then the Tendermint simple tree): commitmenttypes.GetSDKSpecs(). */
const leafSpec = { hash: "SHA256", prehash_key: "NO_HASH", prehash_value: "SHA256", length: "VAR_PROTO", prefix: b64(Uint8Array.of(0)) };
const SDK_PROOF_SPECS = [
  {
    leaf_spec: leafSpec,
    inner_spec: { child_order: [0, 1], child_size: 33, min_prefix_length: 4, max_prefix_length: 12, empty_child: null, hash: "SHA256" },
    max_depth: 0,
    min_depth: 0,
  },
  {
    leaf_spec: leafSpec,
    inner_spec: { child_order: [0, 1], child_size: 32, min_prefix_length: 1, max_prefix_length: 1, empty_child: null, hash: "SHA256" },
    max_depth: 0,
    min_depth: 0,
  },
];

export function ibcDevGenesis(ctx: DevGenesisContext) {
  const genesisSeconds = BigInt(Math.floor(ctx.genesisTime.getTime() / 1000));
  const latest = CONSENSUS_HEIGHTS[CONSENSUS_HEIGHTS.length - 1]!;
  // the peer's block time at a height: its latest height was committed a minute before our genesis
  const peerTime = (h: bigint) => genesisSeconds - 60n - (latest - h) * BLOCK_SECONDS;
  const peerReceiver = encodeBech32Address("peer", sha256(utf8("peer receiver")).slice(0, 20));
  const sent = [
    { sequence: 2n, amount: 1000n },
    { sequence: 3n, amount: 2500n },
  ];
  const packetState = (sequence: bigint, data: Uint8Array) => ({ port_id: PORT, channel_id: CHANNEL, sequence: sequence.toString(), data: b64(data) });
  const sequence = (value: bigint) => ({ port_id: PORT, channel_id: CHANNEL, sequence: value.toString() });

  return {
    client_genesis: {
      clients: [
        {
          client_id: CLIENT,
          client_state: {
            "@type": "/ibc.lightclients.tendermint.v1.ClientState",
            chain_id: PEER_CHAIN_ID,
            trust_level: { numerator: "1", denominator: "3" },
            trusting_period: "1209600s",
            unbonding_period: "1814400s",
            max_clock_drift: "10s",
            frozen_height: { revision_number: "0", revision_height: "0" },
            latest_height: height(latest),
            proof_specs: SDK_PROOF_SPECS,
            upgrade_path: ["upgrade", "upgradedIBCState"],
            allow_update_after_expiry: false,
            allow_update_after_misbehaviour: false,
          },
        },
      ],
      clients_consensus: [
        {
          client_id: CLIENT,
          consensus_states: CONSENSUS_HEIGHTS.map((h) => ({
            height: height(h),
            consensus_state: {
              "@type": "/ibc.lightclients.tendermint.v1.ConsensusState",
              timestamp: rfc3339(peerTime(h)),
              root: { hash: b64(sha256(utf8(`${PEER_CHAIN_ID} app hash at ${h}`))) },
              next_validators_hash: b64(sha256(utf8(`${PEER_CHAIN_ID} validators`))),
            },
          })),
        },
      ],
      // when each consensus state was stored here (nanoseconds), as the 07-tendermint client records it
      clients_metadata: [
        {
          client_id: CLIENT,
          client_metadata: CONSENSUS_HEIGHTS.map((h) => ({
            key: b64(utf8(`consensusStates/1-${h}/processedTime`)),
            value: b64(uint64Value((peerTime(h) + 10n) * 1_000_000_000n)),
          })),
        },
      ],
      params: { allowed_clients: ["06-solomachine", "07-tendermint"] },
      create_localhost: false,
      next_client_sequence: "1",
    },
    connection_genesis: {
      connections: [
        {
          id: CONNECTION,
          client_id: CLIENT,
          versions: [{ identifier: "1", features: ["ORDER_ORDERED", "ORDER_UNORDERED"] }],
          state: "STATE_OPEN",
          counterparty: { client_id: "07-tendermint-5", connection_id: "connection-3", prefix: { key_prefix: b64(utf8("ibc")) } },
          delay_period: "0",
        },
      ],
      client_connection_paths: [{ client_id: CLIENT, paths: [CONNECTION] }],
      next_connection_sequence: "1",
    },
    channel_genesis: {
      channels: [
        {
          state: "STATE_OPEN",
          ordering: "ORDER_UNORDERED",
          counterparty: { port_id: PORT, channel_id: "channel-9" },
          connection_hops: [CONNECTION],
          version: "ics20-1",
          port_id: PORT,
          channel_id: CHANNEL,
        },
      ],
      acknowledgements: [packetState(1n, acknowledgementCommitment(SUCCESS_ACKNOWLEDGEMENT))],
      commitments: sent.map(({ sequence: s, amount }) =>
        packetState(
          s,
          packetCommitment({
            data: fungibleTokenPacketData({ denom: ctx.denom, amount, sender: ctx.accounts[0]!.address, receiver: peerReceiver }),
            timeoutHeight: { revisionNumber: 1n, revisionHeight: latest + 1000n },
            timeoutTimestamp: 0n,
          }),
        ),
      ),
      receipts: [packetState(1n, Uint8Array.of(1))],
      send_sequences: [sequence(4n)],
      // an unordered channel never advances its receive and acknowledgement sequences
      recv_sequences: [sequence(1n)],
      ack_sequences: [sequence(1n)],
      next_channel_sequence: "1",
    },
  };
}
