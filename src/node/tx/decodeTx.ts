import type protobuf from "protobufjs";
import type { Codec } from "../../codec/codec.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { NonCanonicalEncodingError, rejectNonCanonical } from "../../codec/canonicalEncoding.js";
import { UnknownFieldError, rejectUnknownFields } from "../../codec/unknownFields.js";
import { UnknownTypeUrlError, neutralTypeUrl } from "../../codec/typeRegistry.js";
import { sdkError } from "../abci/txError.js";
import { usesLegacyAmino } from "./signerKeys.js";
import { fieldText } from "../../codec/fieldText.js";
import { checkBigNumberFields } from "./bigNumberFields.js";

/** A transaction as the node checks and executes it. */
export interface DecodedTx {
  raw: { body_bytes: Uint8Array; auth_info_bytes: Uint8Array; signatures: Uint8Array[] };
  body: ProtoMessage & { messages: ProtoMessage[]; memo: string };
  authInfo: ProtoMessage & { signer_infos: ProtoMessage[]; fee?: ProtoMessage };
  /** The body carries unknown non-critical fields (allowed, but not with a LEGACY_AMINO_JSON signature). */
  bodyHasUnknownNonCriticals: boolean;
  /** The decoded messages, with their full type names in the neutral words (the modules' keys). */
  msgs: Array<{ typeName: string; msg: ProtoMessage; any: ProtoMessage }>;
  bytes: Uint8Array;
}

/**
 * The real system's strict tx decoder: TxRaw, then body and auth info from
 * the exact signed bytes, rejecting unknown fields (except non-critical ones
 * in the body) and unknown message types. Failures are "tx parse error" (code 2).
 *
 * Beyond v0.41, so that a transaction has one hash: the TxRaw must be in the
 * deterministic encoding (ADR-027, as the decoder of SDK v0.47+ requires), and
 * so must body and auth info when a signer signed in LEGACY_AMINO_JSON, whose
 * sign doc covers their content but not their bytes. `deterministic: false`
 * (simulation) skips the latter: nothing is signed or kept there.
 */
export function decodeTx(codec: Codec, bytes: Uint8Array, options: { deterministic: boolean }): DecodedTx {
  if (bytes.length === 0) throw sdkError("txDecode", "tx bytes are empty");
  const TxRaw = codec.type("core.tx.v1beta1.TxRaw");
  const TxBody = codec.type("core.tx.v1beta1.TxBody");
  const AuthInfo = codec.type("core.tx.v1beta1.AuthInfo");
  try {
    rejectUnknownFields(codec.root, TxRaw, bytes);
    rejectNonCanonical(codec.root, TxRaw, bytes);
    const raw = TxRaw.decode(bytes) as unknown as DecodedTx["raw"];
    raw.body_bytes ??= new Uint8Array();
    raw.auth_info_bytes ??= new Uint8Array();
    raw.signatures ??= [];
    const bodyHasUnknownNonCriticals = rejectUnknownFields(codec.root, TxBody, raw.body_bytes, true);
    rejectUnknownFields(codec.root, AuthInfo, raw.auth_info_bytes);
    const body = decode(TxBody, raw.body_bytes) as DecodedTx["body"];
    body.messages ??= [];
    body.memo ??= "";
    const authInfo = decode(AuthInfo, raw.auth_info_bytes) as DecodedTx["authInfo"];
    checkBigNumberFields(AuthInfo, authInfo);
    authInfo.signer_infos ??= [];
    if (options.deterministic && authInfo.signer_infos.some((info) => usesLegacyAmino(info.mode_info as ProtoMessage | undefined))) {
      rejectNonCanonical(codec.root, TxBody, raw.body_bytes);
      rejectNonCanonical(codec.root, AuthInfo, raw.auth_info_bytes);
    }
    const msgs = body.messages.map((any) => {
      const typeUrl = fieldText(any.type_url);
      const type = codec.root.lookup("." + typeUrl.slice(typeUrl.lastIndexOf("/") + 1));
      if (!type || !("decode" in type)) throw new UnknownTypeUrlError(typeUrl);
      const msg = decode(type as protobuf.Type, any.value as Uint8Array);
      checkBigNumberFields(type as protobuf.Type, msg);
      return { typeName: neutralTypeUrl(typeUrl).slice(1), msg, any };
    });
    return { raw, body, authInfo, bodyHasUnknownNonCriticals, msgs, bytes };
  } catch (err) {
    if (err instanceof UnknownFieldError || err instanceof UnknownTypeUrlError || err instanceof NonCanonicalEncodingError)
      throw sdkError("txDecode", err.message);
    if ((err as { code?: number }).code !== undefined && (err as { codespace?: string }).codespace) throw err;
    throw sdkError("txDecode", (err as Error).message);
  }
}

function decode(type: protobuf.Type, bytes: Uint8Array | undefined): ProtoMessage {
  return type.toObject(type.decode(bytes ?? new Uint8Array()), { longs: String, defaults: false });
}
