import { fieldText } from "../../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import type { ExecContext } from "../../nodeModule.js";
import { getStakingParams } from "../../staking/keeper.js";
import { historicalInfoKey } from "../../staking/keys.js";
import { clientError } from "../host/coreErrors.js";
import { goDuration } from "../host/goText.js";
import { formatHeight, heightGTE, heightPart, heightStruct, isZeroHeight, revisionOfChainId, selfHeight, type Height } from "../host/heights.js";
import type { Unpacked } from "./lightClientChecks.js";
import { nanosOf } from "./lightVerifier.js";

/**
 * This chain as the counterparty's light client must see it (02-client keeper.go of SDK v0.41:
 * ValidateSelfClient and GetSelfConsensusState), checked by ConnOpenTry and ConnOpenAck.
 */

const TM_CLIENT = "/ibc.lightclients.tendermint.v1.ClientState";
const TM_CONSENSUS = "ibc.lightclients.tendermint.v1.ConsensusState";
/** commitmenttypes.GetSDKSpecs(): IAVL then the simple tree; enums as numbers (SHA256 = 1, NO_HASH = 0, VAR_PROTO = 1). */
const leafSpec = { hash: 1, prehash_key: 0, prehash_value: 1, length: 1, prefix: Uint8Array.of(0) };
const SDK_SPECS = [
  { leaf_spec: leafSpec, inner_spec: { child_order: [0, 1], child_size: 33, min_prefix_length: 4, max_prefix_length: 12, hash: 1 } },
  { leaf_spec: leafSpec, inner_spec: { child_order: [0, 1], child_size: 32, min_prefix_length: 1, max_prefix_length: 1, hash: 1 } },
];
const UPGRADE_PATH = ["upgrade", "upgradedIBCState"];
const invalid = (text: string) => clientError("invalidClient", text);

/** ValidateSelfClient: the counterparty's client of this chain has this chain's parameters. */
export async function validateSelfClient(ctx: ExecContext, clientState: Unpacked): Promise<void> {
  if (clientState.typeUrl !== TM_CLIENT) {
    throw invalid("client must be a Tendermint client, expected: *types.ClientState, got: *types.ClientState");
  }
  const cs = clientState.value;
  if (!isZeroHeight(cs.frozen_height ?? {})) throw clientError("clientFrozen");
  const chainId = ctx.chain.chainId;
  if (fieldText(cs.chain_id) !== chainId) throw invalid(`invalid chain-id. expected: ${chainId}, got: ${fieldText(cs.chain_id)}`);
  const revision = revisionOfChainId(chainId);
  const latest = (cs.latest_height ?? {}) as Height;
  if (heightPart(latest.revision_number) !== revision) {
    // the real text names the client's revision as "expected" and the chain's as "got"
    throw invalid(`client is not in the same revision as the chain. expected revision: ${heightPart(latest.revision_number)}, got: ${revision}`);
  }
  const self = selfHeight(ctx);
  if (heightGTE(latest, self)) {
    throw invalid(`client has LatestHeight ${heightStruct(latest)} greater than or equal to chain height ${heightStruct(self)}`);
  }
  const specType = ctx.codec.type("ics23.ProofSpec");
  const specBytes = (specs: unknown[]) => specs.map((spec) => Buffer.from(specType.encode(spec as ProtoMessage).finish()).toString("hex")).join();
  if (specBytes((cs.proof_specs ?? []) as unknown[]) !== specBytes(SDK_SPECS)) {
    throw invalid("client has invalid proof specs. expected: the SDK's IAVL and Tendermint specs");
  }
  const trust = (cs.trust_level ?? {}) as ProtoMessage;
  const [numerator, denominator] = [heightPart(trust.numerator), heightPart(trust.denominator)];
  if (numerator * 3n < denominator || numerator > denominator || denominator === 0n) {
    throw invalid(`trust-level invalid: trustLevel must be within [1/3, 1], given ${numerator}/${denominator}`);
  }
  const expectedUnbonding = nanosOf((await getStakingParams(ctx.storeOf("staking"), ctx)).unbonding_time);
  const [unbonding, trusting] = [nanosOf(cs.unbonding_period), nanosOf(cs.trusting_period)];
  if (unbonding !== expectedUnbonding) {
    throw invalid(`invalid unbonding period. expected: ${goDuration(expectedUnbonding)}, got: ${goDuration(unbonding)}`);
  }
  if (unbonding < trusting) {
    throw invalid(`unbonding period must be greater than trusting period. unbonding period (${unbonding}) < trusting period (${trusting})`);
  }
  const path = (cs.upgrade_path ?? []) as string[];
  if (path.length !== 0 && path.join("\u0000") !== UPGRADE_PATH.join("\u0000")) {
    throw invalid(`upgrade path must be the upgrade path defined by upgrade module. expected [${UPGRADE_PATH.join(" ")}], got [${path.join(" ")}]`);
  }
}

/**
 * GetSelfConsensusState: this chain's consensus state at `height` from x/staking's historical info
 * (header time, app hash, next validators hash), encoded as MarshalInterface does (an Any);
 * undefined when another revision is asked or the entry is not (or no longer) kept.
 */
export async function selfConsensusState(ctx: ExecContext, height: Height): Promise<Uint8Array | undefined> {
  if (heightPart(height.revision_number) !== revisionOfChainId(ctx.chain.chainId)) return undefined;
  const bytes = await ctx.storeOf("staking").get(historicalInfoKey(heightPart(height.revision_height)));
  if (!bytes) return undefined;
  const header = ((ctx.codec.type("core.staking.v1beta1.HistoricalInfo").decode(bytes) as unknown as ProtoMessage).header ?? {}) as ProtoMessage;
  const state = {
    timestamp: header.time,
    root: { hash: header.app_hash ?? new Uint8Array() },
    next_validators_hash: header.next_validators_hash ?? new Uint8Array(),
  };
  const value = ctx.codec.type(TM_CONSENSUS).encode(state).finish();
  return ctx.codec
    .type("google.protobuf.Any")
    .encode({ type_url: `/${TM_CONSENSUS}`, value })
    .finish();
}

export const selfConsensusNotFound = (height: Height) => clientError("selfConsensusStateNotFound", formatHeight(height));
