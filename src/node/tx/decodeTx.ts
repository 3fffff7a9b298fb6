import type protobuf from "protobufjs";
import type { Codec } from "../../codec/codec.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { UnknownFieldError, rejectUnknownFields } from "../../codec/unknownFields.js";
import { UnknownTypeUrlError } from "../../codec/typeRegistry.js";
import { sdkError } from "../abci/txError.js";

/** A transaction as the node checks and executes it. */
export interface DecodedTx {
  raw: { body_bytes: Uint8Array; auth_info_bytes: Uint8Array; signatures: Uint8Array[] };
  body: ProtoMessage & { messages: ProtoMessage[]; memo: string };
  authInfo: ProtoMessage & { signer_infos: ProtoMessage[]; fee?: ProtoMessage };
  /** The decoded messages, with their full type names. */
  msgs: Array<{ typeName: string; msg: ProtoMessage; any: ProtoMessage }>;
  bytes: Uint8Array;
}

/**
 * The real system's strict tx decoder: TxRaw, then body and auth info from
 * the exact signed bytes, rejecting unknown fields (except non-critical ones
 * in the body) and unknown message types. Failures are "tx parse error" (code 2).
 */
export function decodeTx(codec: Codec, bytes: Uint8Array): DecodedTx {
  if (bytes.length === 0) throw sdkError("txDecode", "tx bytes are empty");
  const TxRaw = codec.type("core.tx.v1beta1.TxRaw");
  const TxBody = codec.type("core.tx.v1beta1.TxBody");
  const AuthInfo = codec.type("core.tx.v1beta1.AuthInfo");
  try {
    rejectUnknownFields(codec.root, TxRaw, bytes);
    const raw = TxRaw.decode(bytes) as unknown as DecodedTx["raw"];
    raw.body_bytes ??= new Uint8Array();
    raw.auth_info_bytes ??= new Uint8Array();
    raw.signatures ??= [];
    rejectUnknownFields(codec.root, TxBody, raw.body_bytes, true);
    rejectUnknownFields(codec.root, AuthInfo, raw.auth_info_bytes);
    const body = decode(TxBody, raw.body_bytes) as DecodedTx["body"];
    body.messages ??= [];
    body.memo ??= "";
    const authInfo = decode(AuthInfo, raw.auth_info_bytes) as DecodedTx["authInfo"];
    authInfo.signer_infos ??= [];
    const msgs = body.messages.map((any) => {
      const typeUrl = String(any.type_url ?? "");
      const type = codec.root.lookup(typeUrl.slice(typeUrl.lastIndexOf("/") + 1));
      if (!type || !("decode" in type)) throw new UnknownTypeUrlError(typeUrl);
      return { typeName: typeUrl.slice(1), msg: decode(type as protobuf.Type, any.value as Uint8Array), any };
    });
    return { raw, body, authInfo, msgs, bytes };
  } catch (err) {
    if (err instanceof UnknownFieldError || err instanceof UnknownTypeUrlError) throw sdkError("txDecode", err.message);
    if ((err as { code?: number }).code !== undefined && (err as { codespace?: string }).codespace) throw err;
    throw sdkError("txDecode", (err as Error).message);
  }
}

function decode(type: protobuf.Type, bytes: Uint8Array | undefined): ProtoMessage {
  return type.toObject(type.decode(bytes ?? new Uint8Array()), { longs: String, defaults: false }) as ProtoMessage;
}
