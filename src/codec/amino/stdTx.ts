import protobuf from "protobufjs";
import Long from "long";
import type { JsonValue, ProtoMessage } from "../json/renderProto3.js";
import { AminoJsonError, UnknownAminoTypeError, type AminoJsonParser } from "./aminoJsonParser.js";
import { AminoBinaryError, concat, decodeAminoMultisignature, encodeAminoMultisignature, type AminoBinaryCodec } from "./aminoBinary.js";
import { fieldText } from "../fieldText.js";
import { isJsonObject as isObject } from "../json/jsonNumberForms.js";
import { IntegerTextError, parseIntegerText } from "../scalarText.js";
import { lookupType, neutralTypeUrl } from "../typeRegistry.js";

export const SIGN_MODE_LEGACY_AMINO_JSON = 127;

const QUOTED = "Amino:JSON int/int64/uint/uint64 expects quoted values for javascript numeric support";

/** The StdTx of the legacy family: {msg, fee, signatures, memo, timeout_height} (the value of {type: StdTx, value}). */
export interface StdTxJson {
  msg: JsonValue[];
  fee: { amount: JsonValue[]; gas: string };
  signatures: Array<{ pub_key: JsonValue; signature: string }> | null;
  memo: string;
  timeout_height: string;
}

/**
 * What the conversion needs of the amino JSON renderer. The renderer itself calls
 * stdTxFromTx (for types rendered "as: std-tx"), so this file names only these members.
 */
export interface AminoRendering {
  root: protobuf.Root;
  render(type: protobuf.Type, msg: ProtoMessage): JsonValue;
  renderAny(any: ProtoMessage): JsonValue;
}

/**
 * A protobuf Tx (body, auth_info, signatures decoded) as the StdTx it converts
 * to (ConvertTxToStdTx): msgs in amino JSON, the fee, the memo and timeout,
 * and the signatures only when every signer signed in LEGACY_AMINO_JSON
 * (otherwise []), a multisig signature as amino-binary AminoMultisignature.
 * A Msg without an amino name throws NoAminoEncodingError.
 */
export function stdTxFromTx(amino: AminoRendering, tx: ProtoMessage): StdTxJson {
  const body = (tx.body ?? {}) as ProtoMessage;
  const authInfo = (tx.auth_info ?? {}) as ProtoMessage;
  const fee = (authInfo.fee ?? {}) as ProtoMessage;
  const Coin = lookupType(amino.root, "core.base.v1beta1.Coin");
  const infos = (authInfo.signer_infos ?? []) as ProtoMessage[];
  const signatures = (tx.signatures ?? []) as Uint8Array[];
  const legacy = infos.length > 0 && infos.every((info) => onlyLegacyAmino(info.mode_info as ProtoMessage | undefined));
  return {
    msg: ((body.messages ?? []) as ProtoMessage[]).map((any) => amino.renderAny(any)),
    fee: { amount: ((fee.amount ?? []) as ProtoMessage[]).map((coin) => amino.render(Coin, coin)), gas: text(fee.gas_limit) },
    signatures: legacy
      ? infos.map((info, i) => ({
          pub_key: (info.public_key as ProtoMessage | undefined)?.type_url ? amino.renderAny(info.public_key as ProtoMessage) : null,
          signature: Buffer.from(stdSignature(amino.root, info.mode_info as ProtoMessage, signatures[i] ?? new Uint8Array())).toString("base64"),
        }))
      : [],
    memo: fieldText(body.memo),
    timeout_height: text(body.timeout_height),
  };
}

function text(value: unknown): string {
  if (value == null || value === "") return "0";
  return Long.isLong(value) ? value.toString() : fieldText(value);
}

function onlyLegacyAmino(modeInfo: ProtoMessage | undefined): boolean {
  const single = modeInfo?.single as { mode?: number } | undefined;
  if (single) return single.mode === SIGN_MODE_LEGACY_AMINO_JSON;
  const multi = modeInfo?.multi as { mode_infos?: ProtoMessage[] } | undefined;
  return !!multi && (multi.mode_infos ?? []).every(onlyLegacyAmino);
}

/** A protobuf signature as StdSignature.signature: raw for one key, AminoMultisignature for a multisig. */
function stdSignature(root: protobuf.Root, modeInfo: ProtoMessage, signature: Uint8Array): Uint8Array {
  const multi = modeInfo?.multi as { bitarray?: { extra_bits_stored?: number; elems?: Uint8Array } } | undefined;
  if (!multi) return signature;
  const sigs = (lookupType(root, "core.crypto.multisig.v1beta1.MultiSignature").decode(signature) as unknown as { signatures?: Uint8Array[] }).signatures ?? [];
  return encodeAminoMultisignature({
    bitarray: { extra_bits_stored: multi.bitarray?.extra_bits_stored ?? 0, elems: multi.bitarray?.elems ?? new Uint8Array() },
    signatures: sigs,
  });
}

/** A StdTx read from amino JSON, ready to become a protobuf tx. */
export interface StdTxInput {
  /** each Msg packed as an Any of its protobuf type */
  messages: ProtoMessage[];
  fee: { amount: ProtoMessage[]; gas_limit: Long };
  signatures: Array<{ publicKey: ProtoMessage; signature: Uint8Array }>;
  memo: string;
  timeoutHeight: Long;
}

const STD_TX_KEYS = ["msg", "fee", "signatures", "memo", "timeout_height"];

/**
 * Reads a StdTx value (unwrapped) from amino JSON. Msgs and keys are
 * {type, value} by amino name; 64-bit numbers must be quoted; a missing fee,
 * memo or timeout keeps its zero value. Anything that is not a StdTx (another
 * key, no Msg, a signature that is not {pub_key, signature} or has no key)
 * throws AminoJsonError naming the field, so that no empty or partial
 * transaction is encoded.
 */
export function parseStdTx(parser: AminoJsonParser, json: unknown, path = ""): StdTxInput {
  if (!isObject(json)) throw new AminoJsonError(path, "expected a StdTx object");
  const tx = json;
  const at = (key: string) => (path ? `${path}.${key}` : key);
  const unknown = Object.keys(tx).find((key) => !STD_TX_KEYS.includes(key));
  if (unknown !== undefined) throw new AminoJsonError(at(unknown), `unknown field: a StdTx has ${STD_TX_KEYS.join(", ")}`);
  const msgs = tx.msg;
  if (msgs === undefined || msgs === null) throw new AminoJsonError(at("msg"), "required: a StdTx carries at least one Msg");
  if (!Array.isArray(msgs)) throw new AminoJsonError(at("msg"), "expected an array");
  if (msgs.length === 0) throw new AminoJsonError(at("msg"), "a StdTx carries at least one Msg");
  const Coin = lookupType(parser.root, "core.base.v1beta1.Coin");
  if (tx.fee != null && !isObject(tx.fee)) throw new AminoJsonError(at("fee"), 'expected {"amount", "gas"}');
  const feeJson = tx.fee ?? {};
  const feeAmount = feeJson.amount ?? [];
  if (!Array.isArray(feeAmount)) throw new AminoJsonError(at("fee.amount"), "expected an array");
  const gas = quotedUint64(feeJson.gas ?? "0", at("fee.gas"));
  const signatures = tx.signatures ?? [];
  if (!Array.isArray(signatures)) throw new AminoJsonError(at("signatures"), "expected an array or null");
  const memo = tx.memo ?? "";
  if (typeof memo !== "string") throw new AminoJsonError(at("memo"), "expected a string");
  const timeout = quotedUint64(tx.timeout_height ?? "0", at("timeout_height"));
  return {
    messages: msgs.map((msg, i) => parser.parseAny(msg, at(`msg[${i}]`))),
    fee: { amount: feeAmount.map((coin, i) => parser.parse(Coin, coin, at(`fee.amount[${i}]`))), gas_limit: Long.fromString(gas, true) },
    signatures: signatures.map((sig, i) => {
      const sigPath = at(`signatures[${i}]`);
      if (!isObject(sig)) throw new AminoJsonError(sigPath, 'expected a signature {"pub_key", "signature"}');
      const signature = sig.signature ?? "";
      if (typeof signature !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(signature))
        throw new AminoJsonError(`${sigPath}.signature`, "expected a base64 string");
      // the real conversion failed later, as a 500: "Expecting non nil value to create a new Any"
      if (sig.pub_key == null) throw new AminoJsonError(`${sigPath}.pub_key`, 'required: the signer\'s public key {"type", "value"}');
      return { publicKey: parsePubKey(parser, sig.pub_key, `${sigPath}.pub_key`), signature: new Uint8Array(Buffer.from(signature, "base64")) };
    }),
    memo,
    timeoutHeight: Long.fromString(timeout, true),
  };
}

/** A StdTx that cannot become a protobuf tx (the real server's conversion errors). */
export class StdTxConversionError extends Error {}

/**
 * The protobuf TxRaw of a StdTx (ConvertAndEncodeStdTx): msgs as Anys, the
 * fee, each signature as a LEGACY_AMINO_JSON signer (a multisig from its
 * AminoMultisignature) with the given sequence. The real v0.41 server wrote
 * sequence 0; the caller passes each signer's account sequence.
 */
export function stdTxToTxRaw(root: protobuf.Root, input: StdTxInput, sequences: Long[]): Uint8Array {
  const TxBody = lookupType(root, "core.tx.v1beta1.TxBody");
  const AuthInfo = lookupType(root, "core.tx.v1beta1.AuthInfo");
  const TxRaw = lookupType(root, "core.tx.v1beta1.TxRaw");
  const MultiSignature = lookupType(root, "core.crypto.multisig.v1beta1.MultiSignature");
  const signerInfos: ProtoMessage[] = [];
  const rawSignatures: Uint8Array[] = [];
  for (const [i, sig] of input.signatures.entries()) {
    const multisig = neutralTypeUrl(sig.publicKey.type_url) === "/core.crypto.multisig.LegacyAminoPubKey";
    let modeInfo: ProtoMessage = { single: { mode: SIGN_MODE_LEGACY_AMINO_JSON } };
    let signature = sig.signature;
    if (multisig) {
      let multi;
      try {
        multi = decodeAminoMultisignature(sig.signature);
      } catch (err) {
        throw new StdTxConversionError((err as AminoBinaryError).message);
      }
      modeInfo = { multi: { bitarray: multi.bitarray, mode_infos: multi.signatures.map(() => ({ single: { mode: SIGN_MODE_LEGACY_AMINO_JSON } })) } };
      signature = MultiSignature.encode({ signatures: multi.signatures }).finish();
    }
    const sequence = sequences[i] ?? Long.UZERO;
    signerInfos.push({ public_key: sig.publicKey, mode_info: modeInfo, ...(sequence.isZero() ? {} : { sequence }) });
    rawSignatures.push(signature);
  }
  const body: ProtoMessage = { messages: input.messages };
  if (input.memo) body.memo = input.memo;
  if (!input.timeoutHeight.isZero()) body.timeout_height = input.timeoutHeight;
  const fee: ProtoMessage = { amount: input.fee.amount };
  if (!input.fee.gas_limit.isZero()) fee.gas_limit = input.fee.gas_limit;
  return TxRaw.encode({
    body_bytes: TxBody.encode(TxBody.fromObject(body)).finish(),
    auth_info_bytes: AuthInfo.encode(AuthInfo.fromObject({ signer_infos: signerInfos, fee })).finish(),
    signatures: rawSignatures,
  }).finish();
}

/** A decoded protobuf TxRaw as Tx values {body, auth_info, signatures}. */
export function txFromTxRaw(root: protobuf.Root, bytes: Uint8Array): ProtoMessage {
  const raw = lookupType(root, "core.tx.v1beta1.TxRaw").decode(bytes) as unknown as ProtoMessage;
  return {
    body: lookupType(root, "core.tx.v1beta1.TxBody").decode((raw.body_bytes as Uint8Array) ?? new Uint8Array()),
    auth_info: lookupType(root, "core.tx.v1beta1.AuthInfo").decode((raw.auth_info_bytes as Uint8Array) ?? new Uint8Array()),
    signatures: raw.signatures ?? [],
  };
}

/**
 * Amino binary StdTx (prefix bytes of the StdTx name, then msg = 1 (each an
 * interface), fee = 2, signatures = 3 ({pub_key interface = 1, signature = 2}),
 * memo = 4, timeout_height = 5) → Tx values whose signers are LEGACY_AMINO_JSON,
 * so that stdTxFromTx writes the StdTx back. Throws AminoBinaryError.
 */
export function txFromAminoStdTx(binary: AminoBinaryCodec, root: protobuf.Root, bytes: Uint8Array): ProtoMessage {
  const { type, rest } = binary.splitPrefix(bytes);
  if (type !== lookupType(root, "core.tx.v1beta1.Tx")) throw new AminoBinaryError(`expected a StdTx, found the prefix bytes of ${type.fullName.slice(1)}`);
  const Fee = lookupType(root, "core.tx.v1beta1.Fee");
  const reader = protobuf.Reader.create(rest);
  const messages: ProtoMessage[] = [];
  const signerInfos: ProtoMessage[] = [];
  const signatures: Uint8Array[] = [];
  let fee: ProtoMessage = {};
  let memo = "";
  let timeoutHeight = Long.UZERO;
  try {
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      switch (tag) {
        case 10:
          messages.push(binary.interfaceToAny(reader.bytes()));
          break;
        case 18:
          fee = Fee.decode(reader.bytes());
          break;
        case 26: {
          const sig = protobuf.Reader.create(reader.bytes());
          let publicKey: ProtoMessage | undefined;
          let signature: Uint8Array = new Uint8Array();
          while (sig.pos < sig.len) {
            const sigTag = sig.uint32();
            if (sigTag === 10) publicKey = binary.interfaceToAny(sig.bytes());
            else if (sigTag === 18) signature = sig.bytes();
            else sig.skipType(sigTag & 7);
          }
          const multisig = neutralTypeUrl(publicKey?.type_url) === "/core.crypto.multisig.LegacyAminoPubKey";
          const multi = multisig ? decodeAminoMultisignature(signature) : undefined;
          signerInfos.push({
            public_key: publicKey,
            mode_info: multi
              ? { multi: { bitarray: multi.bitarray, mode_infos: multi.signatures.map(() => ({ single: { mode: SIGN_MODE_LEGACY_AMINO_JSON } })) } }
              : { single: { mode: SIGN_MODE_LEGACY_AMINO_JSON } },
          });
          signatures.push(
            multi ? lookupType(root, "core.crypto.multisig.v1beta1.MultiSignature").encode({ signatures: multi.signatures }).finish() : signature,
          );
          break;
        }
        case 34:
          memo = reader.string();
          break;
        case 40:
          timeoutHeight = Long.fromValue(reader.uint64()).toUnsigned();
          break;
        default:
          reader.skipType(tag & 7);
      }
    }
  } catch (err) {
    if (err instanceof AminoBinaryError) throw err;
    throw new AminoBinaryError(`malformed StdTx: ${(err as Error).message}`);
  }
  return { body: { messages, memo, timeout_height: timeoutHeight }, auth_info: { signer_infos: signerInfos, fee }, signatures };
}

/** The amino binary of a StdTx (MarshalBinaryBare) for Tx values whose signers sign in LEGACY_AMINO_JSON. */
export function aminoStdTxFromTx(binary: AminoBinaryCodec, root: protobuf.Root, tx: ProtoMessage): Uint8Array {
  const body = (tx.body ?? {}) as ProtoMessage;
  const authInfo = (tx.auth_info ?? {}) as ProtoMessage;
  const Fee = lookupType(root, "core.tx.v1beta1.Fee");
  const writer = protobuf.Writer.create();
  for (const msg of (body.messages ?? []) as ProtoMessage[]) writer.uint32(10).bytes(binary.anyToInterface(msg));
  writer.uint32(18).bytes(Fee.encode(Fee.fromObject(authInfo.fee ?? {})).finish());
  const signatures = (tx.signatures ?? []) as Uint8Array[];
  for (const [i, info] of ((authInfo.signer_infos ?? []) as ProtoMessage[]).entries()) {
    const sig = protobuf.Writer.create();
    if ((info.public_key as ProtoMessage | undefined)?.type_url) sig.uint32(10).bytes(binary.anyToInterface(info.public_key as ProtoMessage));
    const raw = stdSignature(root, info.mode_info as ProtoMessage, signatures[i] ?? new Uint8Array());
    if (raw.length) sig.uint32(18).bytes(raw);
    writer.uint32(26).bytes(sig.finish());
  }
  if (body.memo) writer.uint32(34).string(fieldText(body.memo));
  const timeout = Long.fromValue((body.timeout_height as Long | string | undefined) ?? 0);
  if (!timeout.isZero()) writer.uint32(40).uint64(timeout);
  return concat(binary.prefixOf(lookupType(root, "core.tx.v1beta1.Tx")), writer.finish());
}

/** A key type without an amino name is a malformed StdTx, not a Msg without amino encoding. */
function parsePubKey(parser: AminoJsonParser, json: unknown, path: string): ProtoMessage {
  try {
    return parser.parseAny(json, path);
  } catch (err) {
    if (err instanceof UnknownAminoTypeError) throw new AminoJsonError(err.path, err.detail);
    throw err;
  }
}

/** A quoted uint64 of the StdTx (fee.gas, timeout_height): one decimal form, in range, as the other integer fields of both families. */
function quotedUint64(value: unknown, path: string): string {
  if (typeof value !== "string") throw new AminoJsonError(path, QUOTED);
  try {
    return parseIntegerText(value, "uint64").toString();
  } catch (err) {
    if (err instanceof IntegerTextError) throw new AminoJsonError(path, err.reason === "range" ? `'${value}' is out of range` : QUOTED);
    throw err;
  }
}
