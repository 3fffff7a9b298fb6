import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { sdkError } from "../../abci/txError.js";
import { panicError } from "../shared/errorTable.js";
import { toTimestamp } from "../shared/genesisChecks.js";
import type { ExecContext, ModuleContext } from "../nodeModule.js";

const TENDERMINT_CLIENT = "ibc.lightclients.tendermint.v1.ClientState";
const TENDERMINT_CONSENSUS = "ibc.lightclients.tendermint.v1.ConsensusState";
/** The light clients of SDK v0.41 whose client state a plan may carry; only the tendermint one supports upgrades. */
const CLIENT_STATES = new Set([TENDERMINT_CLIENT, "ibc.lightclients.solomachine.v1.ClientState", "ibc.lightclients.localhost.v1.ClientState"]);

/** The interface registry's refusal of a plan's client state that is no light client's (a decode failure, sdk 2). */
export function checkClientStateType(any: ProtoMessage): void {
  const url = fieldText(any.type_url);
  if (!CLIENT_STATES.has(url.replace(/^\//, "")))
    throw sdkError("txDecode", `no concrete type registered for type URL ${url} against interface *exported.ClientState`);
}

const packAny = (ctx: ModuleContext, typeName: string, value: ProtoMessage) =>
  ctx.codec
    .type("google.protobuf.Any")
    .encode({ type_url: `/${typeName}`, value: ctx.codec.type(typeName).encode(value).finish() })
    .finish();

/**
 * The client state a plan promises, as SetUpgradedClient stores it: ZeroCustomFields keeps only the
 * chain-wide fields (07-tendermint client_state.go); the solo machine and localhost clients panic there.
 */
export function upgradedClientState(ctx: ExecContext, any: ProtoMessage): Uint8Array {
  const url = fieldText(any.type_url).replace(/^\//, "");
  if (url !== TENDERMINT_CLIENT) throw panicError(`ZeroCustomFields is not implemented as the ${url} client does not support upgrades`);
  const state = ctx.codec.type(url).decode((any.value as Uint8Array | undefined) ?? new Uint8Array()) as unknown as ProtoMessage;
  const { chain_id, unbonding_period, latest_height, proof_specs, upgrade_path } = state;
  return packAny(ctx, url, { chain_id, unbonding_period, latest_height, proof_specs, upgrade_path });
}

/**
 * The consensus state IBC clients of the next chain version trust: this block's time and the
 * next validators' hash, with an empty root (x/upgrade/abci.go, SDK v0.41).
 */
export function lastConsensusState(ctx: ExecContext): Uint8Array {
  const nextValidatorsHash = Uint8Array.from(Buffer.from(ctx.block?.nextValidatorsHash ?? "", "hex"));
  return packAny(ctx, TENDERMINT_CONSENSUS, { timestamp: toTimestamp(ctx.time), root: { hash: new Uint8Array() }, next_validators_hash: nextValidatorsHash });
}
