import { fieldText } from "../../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import type { Codec } from "../../../../codec/codec.js";
import { sdkError, TxError } from "../../../abci/txError.js";
import { plainError } from "../../shared/errorTable.js";
import { clientError, tendermintClientError } from "../host/coreErrors.js";
import { goDuration } from "../host/goText.js";
import { checkId } from "../host/msgChecks.js";

/**
 * The light client types the real app registers against the exported interfaces, and their
 * stateless checks (ClientState.Validate, ConsensusState.ValidateBasic, Header.ValidateBasic,
 * Misbehaviour.ValidateBasic of 07-tendermint and 06-solomachine, SDK v0.41).
 */
const TM = "/ibc.lightclients.tendermint.v1.";
const SOLO = "/ibc.lightclients.solomachine.v1.";
const IMPLEMENTATIONS = {
  ClientState: [`${TM}ClientState`, `${SOLO}ClientState`, "/ibc.lightclients.localhost.v1.ClientState"],
  ConsensusState: [`${TM}ConsensusState`, `${SOLO}ConsensusState`],
  Header: [`${TM}Header`, `${SOLO}Header`],
  Misbehaviour: [`${TM}Misbehaviour`, `${SOLO}Misbehaviour`],
} as const;
export type LightClientInterface = keyof typeof IMPLEMENTATIONS;

export interface Unpacked {
  typeUrl: string;
  value: ProtoMessage;
}

/** Unpack an Any field as the tx decoder's UnpackInterfaces and the Msgs' UnpackX do. */
export function unpack(any: unknown, iface: LightClientInterface, codec: Codec): Unpacked {
  if (!any) throw sdkError("unpackAny", "protobuf Any message cannot be nil");
  const typeUrl = fieldText((any as ProtoMessage).type_url);
  if (!(IMPLEMENTATIONS[iface] as readonly string[]).includes(typeUrl)) {
    throw sdkError("txDecode", `no concrete type registered for type URL ${typeUrl} against interface *exported.${iface}`);
  }
  try {
    return {
      typeUrl,
      value: codec.type(typeUrl.slice(1)).decode(((any as ProtoMessage).value as Uint8Array | undefined) ?? new Uint8Array()),
    };
  } catch (err) {
    throw sdkError("txDecode", (err as Error).message);
  }
}

/** The client type of an unpacked client state or consensus state ("07-tendermint"). */
export function clientTypeOfUrl(typeUrl: string): string {
  if (typeUrl.startsWith(TM)) return "07-tendermint";
  if (typeUrl.startsWith(SOLO)) return "06-solomachine";
  return "09-localhost";
}

const nanosOf = (duration: unknown) => {
  const d = (duration ?? {}) as ProtoMessage;
  return BigInt(fieldText(d.seconds, "0")) * 1_000_000_000n + BigInt(fieldText(d.nanos, "0"));
};
const bytesLength = (value: unknown) => (value as Uint8Array | undefined)?.length ?? 0;

/** ClientState.Validate. */
export function validateClientState(state: Unpacked): void {
  const cs = state.value;
  if (state.typeUrl === `${SOLO}ClientState`) {
    if (BigInt(fieldText(cs.sequence, "0")) === 0n) throw clientError("invalidClient", "sequence cannot be 0");
    if (!cs.consensus_state) throw clientError("invalidConsensus", "consensus state cannot be nil");
    validateConsensusState({ typeUrl: `${SOLO}ConsensusState`, value: cs.consensus_state as ProtoMessage });
    return;
  }
  if (state.typeUrl !== `${TM}ClientState`) return;
  if (fieldText(cs.chain_id).trim() === "") throw tendermintClientError("invalidChainId", "chain id cannot be empty string");
  const trust = (cs.trust_level ?? {}) as ProtoMessage;
  const [numerator, denominator] = [BigInt(fieldText(trust.numerator, "0")), BigInt(fieldText(trust.denominator, "0"))];
  if (numerator * 3n < denominator || numerator > denominator || denominator === 0n) {
    throw plainError(`trustLevel must be within [1/3, 1], given ${numerator}/${denominator}`);
  }
  const [trusting, unbonding] = [nanosOf(cs.trusting_period), nanosOf(cs.unbonding_period)];
  if (trusting === 0n) throw tendermintClientError("invalidTrustingPeriod", "trusting period cannot be zero");
  if (unbonding === 0n) throw tendermintClientError("invalidUnbondingPeriod", "unbonding period cannot be zero");
  if (nanosOf(cs.max_clock_drift) === 0n) throw tendermintClientError("invalidMaxClockDrift", "max clock drift cannot be zero");
  if (BigInt(fieldText((cs.latest_height as ProtoMessage | undefined)?.revision_height, "0")) === 0n) {
    throw tendermintClientError("invalidHeaderHeight", "tendermint revision height cannot be zero");
  }
  if (trusting >= unbonding) {
    throw tendermintClientError("invalidTrustingPeriod", `trusting period (${goDuration(trusting)}) should be < unbonding period (${goDuration(unbonding)})`);
  }
  if (((cs.proof_specs ?? []) as unknown[]).length === 0) throw tendermintClientError("invalidProofSpecs", "proof specs cannot be nil for tm client");
  ((cs.upgrade_path ?? []) as string[]).forEach((key, i) => {
    if (key.trim() === "") throw clientError("invalidClient", `key in upgrade path at index ${i} cannot be empty`);
  });
}

/** ConsensusState.ValidateBasic. */
export function validateConsensusState(state: Unpacked): void {
  const cs = state.value;
  if (state.typeUrl === `${SOLO}ConsensusState`) {
    if (BigInt(fieldText(cs.timestamp, "0")) === 0n) throw clientError("invalidConsensus", "timestamp cannot be 0");
    const diversifier = fieldText(cs.diversifier);
    if (diversifier !== "" && diversifier.trim() === "") throw clientError("invalidConsensus", "diversifier cannot contain only spaces");
    if (!cs.public_key) throw clientError("invalidConsensus", "public key cannot be nil");
    return;
  }
  if (bytesLength((cs.root as ProtoMessage | undefined)?.hash) === 0) throw clientError("invalidConsensus", "root cannot be empty");
  const hashLength = bytesLength(cs.next_validators_hash);
  if (hashLength !== 0 && hashLength !== 32) {
    throw plainError(`next validators hash is invalid: expected size to be 32 bytes, got ${hashLength} bytes`);
  }
  // an unset timestamp is Go's zero time, whose Unix() is negative
  const seconds = cs.timestamp ? BigInt(fieldText((cs.timestamp as ProtoMessage).seconds, "0")) : -1n;
  if (seconds <= 0n) throw clientError("invalidConsensus", "timestamp must be a positive Unix time");
}

/**
 * Header.ValidateBasic of 07-tendermint, as far as this node reproduces it: the nil checks and the
 * trusted height. The signed header's own ValidateBasic and the validator set hash are not checked here.
 */
export function validateHeader(header: Unpacked): void {
  if (header.typeUrl !== `${TM}Header`) return;
  checkTendermintHeader(header.value, (text) => clientError("invalidHeader", text));
}

function checkTendermintHeader(h: ProtoMessage, invalid: (text: string) => Error): void {
  const signed = h.signed_header as ProtoMessage | undefined;
  if (!signed) throw invalid("tendermint signed header cannot be nil");
  if (!signed.header) throw invalid("tendermint header cannot be nil");
  if (!h.validator_set) throw invalid("validator set is nil");
}

/**
 * Misbehaviour.ValidateBasic of 07-tendermint up to and including each header's ValidateBasic
 * (`headerContents` adds what follows its nil checks); returns its client id.
 */
export function validateMisbehaviour(misbehaviour: Unpacked, headerContents: (h: ProtoMessage) => void = () => {}): string {
  const m = misbehaviour.value;
  if (misbehaviour.typeUrl !== `${TM}Misbehaviour`) return fieldText(m.client_id);
  const headers = [m.header_1, m.header_2] as Array<ProtoMessage | undefined>;
  headers.forEach((h, i) => {
    if (!h) throw tendermintClientError("invalidHeader", `misbehaviour Header${i + 1} cannot be nil`);
  });
  headers.forEach((h, i) => {
    if (BigInt(fieldText((h!.trusted_height as ProtoMessage | undefined)?.revision_height, "0")) === 0n) {
      throw tendermintClientError("invalidHeaderHeight", `misbehaviour Header${i + 1} cannot have zero revision height`);
    }
  });
  headers.forEach((h, i) => {
    if (!h!.trusted_validators) throw tendermintClientError("invalidValidatorSet", `trusted validator set in Header${i + 1} cannot be empty`);
  });
  const chainId = (h: ProtoMessage) => fieldText(((h.signed_header as ProtoMessage | undefined)?.header as ProtoMessage | undefined)?.chain_id);
  if (chainId(headers[0]!) !== chainId(headers[1]!)) throw clientError("invalidMisbehaviour", "headers must have identical chainIDs");
  checkId("client", m.client_id, "misbehaviour client ID is invalid");
  headers.forEach((h, i) => {
    try {
      checkTendermintHeader(h!, (text) => clientError("invalidHeader", text));
      headerContents(h!);
    } catch (err) {
      if (err instanceof TxError) throw clientError("invalidMisbehaviour", `header ${i + 1} failed validation: ${err.message}`);
      throw err;
    }
  });
  return fieldText(m.client_id);
}
