import type { AbciQueryResponse } from "../../client/chainClient.js";
import type { Codec } from "../../codec/codec.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { abciQueryFailure, SdkError } from "../abci/abciResult.js";
import { TxError } from "../abci/txError.js";
import { goJson } from "../../codec/amino/aminoJson.js";
import { decodeTx } from "./decodeTx.js";
import { invalidArgument } from "../abci/queryError.js";
import type { TxOutcome } from "./runTx.js";

/**
 * core.tx.v1beta1.Service/Simulate as an ABCI query: takes the `tx` field
 * of the real v0.41 request or the `tx_bytes` field newer clients send, runs
 * the whole transaction on a copy of the state, and answers gas and result.
 */
export async function simulateQuery(
  data: Uint8Array,
  height: number,
  codec: Codec,
  simulate: (bytes: Uint8Array) => Promise<TxOutcome>,
): Promise<AbciQueryResponse> {
  try {
    const request = codec.type("core.tx.v1beta1.SimulateRequest").decode(data) as unknown as { tx?: ProtoMessage; tx_bytes?: Uint8Array };
    const bytes = request.tx_bytes?.length ? request.tx_bytes : request.tx ? rawFromTx(codec, request.tx) : undefined;
    if (!bytes) throw invalidArgument("invalid empty tx");
    const outcome = await simulate(bytes);
    if (outcome.code !== 0) return { code: outcome.code, codespace: outcome.codespace, log: outcome.log, value: new Uint8Array(), height };
    const response = {
      gas_info: { gas_wanted: 0, gas_used: outcome.gasUsed.toString() },
      result: {
        data: outcome.data,
        log: outcome.log,
        events: outcome.events.map((e) => ({
          type: e.type,
          attributes: e.attributes.map((a) => ({ key: Buffer.from(a.key), value: Buffer.from(a.value), index: true })),
        })),
      },
    };
    return { code: 0, codespace: "", log: "", value: codec.type("core.tx.v1beta1.SimulateResponse").encode(response).finish(), height };
  } catch (err) {
    return abciQueryFailure(err, height);
  }
}

/**
 * The baseapp's `/app/simulate`: the transaction's bytes (a TxRaw), run as Simulate runs it;
 * answers the amino JSON of sdk.SimulationResponse with codespace "sdk", as handleQueryApp does.
 */
export async function appSimulate(
  bytes: Uint8Array,
  height: number,
  codec: Codec,
  simulate: (bytes: Uint8Array) => Promise<TxOutcome>,
): Promise<AbciQueryResponse> {
  try {
    decodeTx(codec, bytes, { deterministic: false });
  } catch (err) {
    // Wrap(err, "failed to decode tx"): the cause's code, the wrapped text
    const { code, codespace } = err instanceof TxError ? err : { code: SdkError.txDecode.code, codespace: "sdk" };
    return { code, codespace, log: `failed to decode tx: ${(err as Error).message}`, value: new Uint8Array(), height: 0 };
  }
  const outcome = await simulate(bytes);
  if (outcome.code !== 0)
    return { code: outcome.code, codespace: outcome.codespace, log: `failed to simulate tx: ${outcome.log}`, value: new Uint8Array(), height: 0 };
  // amino JSON leaves out the empty fields (omitempty); []byte is base64, uint64 a quoted integer
  const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
  const result: Record<string, unknown> = {};
  if (outcome.data.length) result.data = base64(outcome.data);
  if (outcome.log) result.log = outcome.log;
  if (outcome.events.length) {
    result.events = outcome.events.map((e) => ({
      type: e.type,
      attributes: e.attributes.map((a) => ({ key: base64(Buffer.from(a.key)), value: base64(Buffer.from(a.value)) })),
    }));
  }
  const gasInfo: Record<string, string> = {};
  if (outcome.gasWanted) gasInfo.gas_wanted = outcome.gasWanted.toString();
  if (outcome.gasUsed) gasInfo.gas_used = outcome.gasUsed.toString();
  const json = goJson({ gas_info: gasInfo, result });
  return { code: 0, codespace: "sdk", log: "", value: new TextEncoder().encode(json), height };
}

/** A decoded Tx back to TxRaw bytes (the v0.41 request carries the Tx, not its bytes). */
function rawFromTx(codec: Codec, tx: ProtoMessage): Uint8Array {
  return codec
    .type("core.tx.v1beta1.TxRaw")
    .encode({
      body_bytes: codec
        .type("core.tx.v1beta1.TxBody")
        .encode(tx.body ?? {})
        .finish(),
      auth_info_bytes: codec
        .type("core.tx.v1beta1.AuthInfo")
        .encode(tx.auth_info ?? {})
        .finish(),
      signatures: (tx.signatures ?? []) as Uint8Array[],
    })
    .finish();
}
