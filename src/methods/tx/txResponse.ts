import Long from "long";
import type { Codec } from "../../codec/codec.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { base64Bytes } from "../rpcJson.js";
import type { TxResult } from "../../client/chainClient.js";
import type { RpcMessageLog, RpcTxResult } from "../../client/rpcJsonTypes.js";
import { profileTypeUrl } from "../../codec/typeRegistry.js";

/** raw_log text → ABCIMessageLog values; a log that is not message logs (a failure's text) gives []. */
export function parseLogs(rawLog: string | undefined): ProtoMessage[] {
  try {
    const logs = JSON.parse(rawLog ?? "") as RpcMessageLog[];
    if (!Array.isArray(logs)) return [];
    return logs.map((log) => ({
      msg_index: log.msg_index ?? 0,
      log: log.log ?? "",
      events: (log.events ?? []).map((e) => ({
        type: e.type ?? "",
        attributes: (e.attributes ?? []).map((a) => ({ key: a.key ?? "", value: a.value ?? "" })),
      })),
    }));
  } catch {
    return [];
  }
}

/** A DeliverTx/CheckTx `data` (base64 in RPC JSON) as the uppercase hex of TxResponse.data. */
function dataHex(base64: string | undefined): string {
  return Buffer.from(base64 ?? "", "base64")
    .toString("hex")
    .toUpperCase();
}

/** A result's events (RPC JSON: attribute keys and values base64) as consensus.abci.Event values. */
function abciEvents(events: unknown[] | undefined): ProtoMessage[] {
  return (events ?? []).map((event) => {
    const { type, attributes } = event as { type?: string; attributes?: Array<{ key?: string; value?: string; index?: boolean }> };
    return {
      type: type ?? "",
      attributes: (attributes ?? []).map((a) => ({ key: base64Bytes(a.key ?? ""), value: base64Bytes(a.value ?? ""), index: a.index ?? false })),
    };
  });
}

/** The TxResponse fields a CheckTx/DeliverTx result (RPC JSON) fills: code, log and logs, data, info, gas, events (SDK v0.43). */
export function resultFields(result: RpcTxResult): ProtoMessage {
  return {
    events: abciEvents(result.events),
    codespace: result.codespace ?? "",
    code: result.code ?? 0,
    data: dataHex(result.data),
    raw_log: result.log ?? "",
    logs: parseLogs(result.log),
    info: result.info ?? "",
    gas_wanted: Long.fromString(String(result.gas_wanted ?? "0")),
    gas_used: Long.fromString(String(result.gas_used ?? "0")),
  };
}

/** TxRaw bytes → core.tx.v1beta1.Tx values (decoded body and auth info). */
function txFromRaw(codec: Codec, bytes: Uint8Array): ProtoMessage {
  const raw = codec.type("core.tx.v1beta1.TxRaw").decode(bytes) as unknown as ProtoMessage;
  return {
    body: codec.type("core.tx.v1beta1.TxBody").decode((raw.body_bytes as Uint8Array) ?? new Uint8Array()),
    auth_info: codec.type("core.tx.v1beta1.AuthInfo").decode((raw.auth_info_bytes as Uint8Array) ?? new Uint8Array()),
    signatures: raw.signatures ?? [],
  };
}

/**
 * The full TxResponse of a committed transaction (as SDK v0.41.4 fills it):
 * logs, raw_log, uppercase hex data, gas, the tx as an Any, and the block time.
 */
export function committedTxResponse(codec: Codec, tx: TxResult, blockTime: string): { tx: ProtoMessage; txResponse: ProtoMessage } {
  const result = tx.tx_result as RpcTxResult;
  const bytes = base64Bytes(tx.tx);
  const decoded = txFromRaw(codec, bytes);
  const Tx = codec.type("core.tx.v1beta1.Tx");
  return {
    tx: decoded,
    txResponse: {
      height: Long.fromString(String(tx.height)),
      txhash: String(tx.hash).toUpperCase(),
      ...resultFields(result),
      tx: { type_url: profileTypeUrl("/core.tx.v1beta1.Tx"), value: Tx.encode(Tx.fromObject(decoded)).finish() },
      timestamp: blockTime ? new Date(blockTime).toISOString().replace(/\.\d+Z$/, "Z") : "",
    },
  };
}
