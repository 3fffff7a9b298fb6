import type { Codec } from "../../codec/codec.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { goJson, NoAminoEncodingError, type AminoJsonRenderer } from "../../codec/amino/aminoJson.js";
import { sdkError, TxError } from "../abci/txError.js";
import type { CacheLayer } from "../store/cacheLayer.js";
import { ModuleStore } from "../store/moduleStore.js";
import type { AbciEvent, AnteCheck, BlockInfo, ChainInfo, ExecContext, MsgRoute, ParamSubspaces } from "../modules/nodeModule.js";
import { runAnte, type RunMode } from "./ante.js";
import { decodeTx, type DecodedTx } from "./decodeTx.js";
import { GasMeter, OutOfGasError } from "./gasMeter.js";
import { signBytesFactory } from "./signBytes.js";
import { fieldText } from "../../codec/fieldText.js";
import { profileTypeUrl } from "../../codec/typeRegistry.js";
import { processLogger } from "../../telemetry/processLogger.js";

/** The outcome of a transaction, as CheckTx / DeliverTx / Simulate report it. */
export interface TxOutcome {
  code: number;
  codespace: string;
  /** raw_log: the message logs as JSON on success, the error text on failure. */
  log: string;
  /** TxMsgData bytes on success. */
  data: Uint8Array;
  gasWanted: bigint;
  gasUsed: bigint;
  /** ABCI events: the ante handler's, then each message's. */
  events: AbciEvent[];
}

export interface TxEnvironment {
  codec: Codec;
  amino: AminoJsonRenderer;
  chain: ChainInfo;
  routes: ReadonlyMap<string, MsgRoute>;
  paramSubspaces: ParamSubspaces;
  /** The modules' ante decorators, in module order, run after the SDK's. */
  anteChecks: readonly AnteCheck[];
  /** The state this transaction runs on; written only when it succeeds (ante writes stay when only the msgs fail). */
  layer: CacheLayer;
  height: number;
  time: Date;
  minGasPrices: Array<{ denom: string; amount: bigint; scale: bigint }>;
  /** consensus_params.block.max_gas; -1 or 0 = no limit. */
  blockMaxGas: bigint;
  /** The header facts of the block being made (DeliverTx only): the handlers' ctx.BlockHeader(). */
  block?: BlockInfo;
}

/**
 * Runs a transaction the way the real app's runTx does: decode, ante handler
 * on its own cache (kept even if the messages fail: fees and sequence are
 * charged), then — not in CheckTx — the messages on another cache that is
 * written only if all of them succeed.
 *
 * `decoded`: these bytes as decodeTx already read them in the same strict way
 * (CheckTx's decode, kept for DeliverTx), so that they are not decoded again.
 */
export async function runTx(bytes: Uint8Array, mode: RunMode, env: TxEnvironment, decoded?: DecodedTx): Promise<TxOutcome> {
  let gasWanted = 0n;
  let gas = new GasMeter();
  const anteEvents: AbciEvent[] = [];
  try {
    const tx = decoded && mode !== "simulate" ? decoded : decodeTx(env.codec, bytes, { deterministic: mode !== "simulate" });
    gasWanted = BigInt(fieldText(tx.authInfo.fee?.gas_limit, "0"));
    if (env.blockMaxGas > 0n && gasWanted > env.blockMaxGas) {
      throw sdkError("outOfGas", `gas wanted ${gasWanted} is greater than the block max gas ${env.blockMaxGas}`);
    }
    const routed = tx.msgs.map(({ typeName, msg }) => {
      const route = env.routes.get(typeName);
      if (!route) throw sdkError("unknownRequest", `unrecognized message type: ${profileTypeUrl(`/${typeName}`)}`);
      return { typeName, msg, route };
    });
    for (const { route, msg } of routed) route.validateBasic?.(msg, env.chain, env.codec);
    const msgSigners = [...new Set(routed.flatMap(({ route, msg }) => route.signers(msg, env.chain)))];
    gas = new GasMeter(mode === "simulate" ? undefined : Number(gasWanted));

    const anteLayer = env.layer.child();
    await runAnte(tx, execContext(env, anteLayer, gas, anteEvents), {
      mode,
      msgSigners,
      minGasPrices: env.minGasPrices,
      signBytes: signBytesFactory(env.codec, env.amino, tx),
    });
    const anteContext = execContext(env, anteLayer, gas, anteEvents);
    for (const check of env.anteChecks) await check(routed, anteContext);
    anteLayer.commitTo(env.layer);
    if (mode === "check") return outcome(0, "", "[]", new Uint8Array(), gasWanted, gas, anteEvents);

    const msgLayer = env.layer.child();
    const logs: Array<{ msg_index?: number; events: AbciEvent[] }> = [];
    const msgData: ProtoMessage[] = [];
    const events = [...anteEvents];
    for (const [index, { typeName, msg, route }] of routed.entries()) {
      const msgEvents: AbciEvent[] = [{ type: "message", attributes: [{ key: "action", value: route.action }] }];
      let response: ProtoMessage;
      try {
        response = await route.handler(msg, { ...execContext(env, msgLayer, gas, msgEvents), txBytes: bytes });
      } catch (err) {
        if (err instanceof TxError) throw err.wrap(`failed to execute message; message index: ${index}`);
        throw err;
      }
      msgData.push({
        msg_type: route.action,
        data: env.codec
          .type(route.responseType ?? `${typeName}Response`)
          .encode(response)
          .finish(),
      });
      logs.push(index === 0 ? { events: stringifyEvents(msgEvents) } : { msg_index: index, events: stringifyEvents(msgEvents) });
      events.push(...msgEvents);
    }
    msgLayer.commitTo(env.layer);
    const data = env.codec.type("core.base.abci.v1beta1.TxMsgData").encode({ data: msgData }).finish();
    return outcome(0, "", goJson(logs), data, gasWanted, gas, events);
  } catch (err) {
    const failure = asTxError(err);
    return outcome(failure.code, failure.codespace, failure.message, new Uint8Array(), gasWanted, gas, []);
  }
}

function execContext(env: TxEnvironment, layer: CacheLayer, gas: GasMeter, events: AbciEvent[]): ExecContext {
  return {
    chain: env.chain,
    codec: env.codec,
    height: env.height,
    time: env.time,
    gas,
    store: new ModuleStore(layer, "auth", gas),
    storeOf: (module) => new ModuleStore(layer, module, gas),
    emit: (event) => events.push(event),
    paramSubspaces: env.paramSubspaces,
    block: env.block,
  };
}

/** sdk.StringifyEvents: events of the same type merged into one, in order of first appearance. */
function stringifyEvents(events: AbciEvent[]): AbciEvent[] {
  const merged: AbciEvent[] = [];
  for (const event of events) {
    const existing = merged.find((e) => e.type === event.type);
    if (existing) existing.attributes.push(...event.attributes);
    else merged.push({ type: event.type, attributes: [...event.attributes] });
  }
  return merged;
}

function asTxError(err: unknown): TxError {
  if (err instanceof TxError) return err;
  if (err instanceof OutOfGasError) return sdkError("outOfGas", err.message);
  if (err instanceof NoAminoEncodingError) return sdkError("unauthorized", `cannot build the amino sign bytes: ${err.message}`);
  processLogger().error({ err }, "[node] transaction failed unexpectedly");
  return new TxError("undefined", 1, "internal", (err as Error)?.message);
}

function outcome(code: number, codespace: string, log: string, data: Uint8Array, gasWanted: bigint, gas: GasMeter, events: AbciEvent[]): TxOutcome {
  return { code, codespace, log, data, gasWanted, gasUsed: BigInt(gas.consumed), events };
}
