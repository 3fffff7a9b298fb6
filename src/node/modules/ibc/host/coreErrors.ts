import { errorTable } from "../../shared/errorTable.js";

/**
 * Registered errors of IBC core (SDK v0.41 x/ibc/core, the same tables as ibc-go's first commit):
 * 02-client ("client"), 03-connection ("connection"), 04-channel ("channel"),
 * 23-commitment ("commitment"), 24-host ("host"), the 07-tendermint light client
 * ("tendermint-client") and x/capability ("capability").
 */
export const clientError = errorTable("client", {
  clientExists: [2, "light client already exists"],
  invalidClient: [3, "light client is invalid"],
  clientNotFound: [4, "light client not found"],
  clientFrozen: [5, "light client is frozen due to misbehaviour"],
  consensusStateNotFound: [7, "consensus state not found"],
  invalidConsensus: [8, "invalid consensus state"],
  invalidClientType: [10, "invalid client type"],
  invalidHeader: [12, "invalid client header"],
  invalidMisbehaviour: [13, "invalid light client misbehaviour"],
  selfConsensusStateNotFound: [22, "self consensus state not found"],
  invalidUpgradeClient: [25, "invalid client upgrade"],
});

export const connectionError = errorTable("connection", {
  connectionNotFound: [3, "connection not found"],
  invalidConnectionState: [6, "invalid connection state"],
  invalidCounterparty: [7, "invalid counterparty connection"],
  invalidConnection: [8, "invalid connection"],
  invalidVersion: [9, "invalid connection version"],
  versionNegotiationFailed: [10, "connection version negotiation failed"],
  invalidConnectionIdentifier: [11, "invalid connection identifier"],
});

export const channelError = errorTable("channel", {
  channelNotFound: [3, "channel not found"],
  invalidChannel: [4, "invalid channel"],
  invalidChannelState: [5, "invalid channel state"],
  invalidChannelOrdering: [6, "invalid channel ordering"],
  invalidCounterparty: [7, "invalid counterparty channel"],
  sequenceSendNotFound: [10, "sequence send not found"],
  sequenceReceiveNotFound: [11, "sequence receive not found"],
  sequenceAckNotFound: [12, "sequence acknowledgement not found"],
  invalidPacket: [13, "invalid packet"],
  packetTimeout: [14, "packet timeout"],
  tooManyConnectionHops: [15, "too many connection hops"],
  invalidAcknowledgement: [16, "invalid acknowledgement"],
  acknowledgementExists: [19, "acknowledgement for packet already exists"],
  invalidChannelIdentifier: [20, "invalid channel identifier"],
});

export const commitmentError = errorTable("commitment", {
  invalidProof: [2, "invalid proof"],
  invalidPrefix: [3, "invalid prefix"],
  invalidMerkleProof: [4, "invalid merkle proof"],
});

export const hostError = errorTable("host", { invalidID: [2, "invalid identifier"] });

export const tendermintClientError = errorTable("tendermint-client", {
  invalidChainId: [2, "invalid chain-id"],
  invalidTrustingPeriod: [3, "invalid trusting period"],
  invalidUnbondingPeriod: [4, "invalid unbonding period"],
  invalidHeaderHeight: [5, "invalid header height"],
  invalidHeader: [6, "invalid header"],
  invalidMaxClockDrift: [7, "invalid max clock drift"],
  processedTimeNotFound: [8, "processed time not found"],
  delayPeriodNotPassed: [9, "packet-specified delay period has not been reached"],
  trustingPeriodExpired: [10, "time since latest trusted state has passed the trusting period"],
  invalidProofSpecs: [12, "invalid proof specs"],
  invalidValidatorSet: [13, "invalid validator set"],
});

export const capabilityError = errorTable("capability", { capabilityNotFound: [7, "capability not found"] });
