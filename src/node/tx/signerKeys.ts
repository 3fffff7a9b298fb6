import { verifySecp256k1 } from "./secp256k1Verify.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import type { Codec } from "../../codec/codec.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { sdkError } from "../abci/txError.js";
import { fieldText } from "../../codec/fieldText.js";
import { neutralTypeUrl } from "../../codec/typeRegistry.js";

export const SIGN_MODE_DIRECT = 1;
export const SIGN_MODE_LEGACY_AMINO_JSON = 127;

/** A signer's public key, as the ante handler needs it. */
export type SignerKey =
  | { kind: "secp256k1"; key: Uint8Array; address: Uint8Array }
  | { kind: "ed25519"; key: Uint8Array; address: Uint8Array }
  | { kind: "multisig"; threshold: number; keys: SignerKey[]; address: Uint8Array };

/** Sign bytes for one signature, by sign mode. */
export type SignBytesOf = (mode: number) => Uint8Array;

/** Reads a public key Any: secp256k1, ed25519 (refused for transactions later) or a legacy amino multisig. */
export function signerKeyFromAny(codec: Codec, any: ProtoMessage): SignerKey {
  const typeUrl = fieldText(any.type_url);
  const value = (any.value as Uint8Array) ?? new Uint8Array();
  switch (neutralTypeUrl(typeUrl)) {
    case "/core.crypto.secp256k1.PubKey": {
      const key = keyBytes(codec, "core.crypto.secp256k1.PubKey", value);
      if (key.length !== 33) throw sdkError("invalidPubKey", `invalid secp256k1 public key length ${key.length}, expected 33`);
      return { kind: "secp256k1", key, address: secp256k1Address(key) };
    }
    case "/core.crypto.ed25519.PubKey": {
      const key = keyBytes(codec, "core.crypto.ed25519.PubKey", value);
      return { kind: "ed25519", key, address: sha256(key).subarray(0, 20) };
    }
    case "/core.crypto.multisig.LegacyAminoPubKey": {
      const multisig = codec.type("core.crypto.multisig.LegacyAminoPubKey").decode(value) as unknown as { threshold: number; public_keys: ProtoMessage[] };
      const keys = (multisig.public_keys ?? []).map((k) => signerKeyFromAny(codec, k));
      const threshold = multisig.threshold ?? 0;
      if (threshold === 0 || threshold > keys.length) throw sdkError("invalidPubKey", `invalid multisig threshold ${threshold} of ${keys.length} keys`);
      return { kind: "multisig", threshold, keys, address: sha256(aminoMultisigBytes(threshold, keys)).subarray(0, 20) };
    }
    default:
      throw sdkError("invalidPubKey", `unsupported public key type ${typeUrl || "(none)"}`);
  }
}

/** Addresses of recent secp256k1 keys (each tx's signer key is read in CheckTx and again in DeliverTx); bounded. */
const addresses = new Map<string, Uint8Array>();
const MAX_ADDRESSES = 10_000;

/** RIPEMD-160(SHA-256(key)), remembered per key; a copy, so that no caller can change what is remembered. */
function secp256k1Address(key: Uint8Array): Uint8Array {
  const id = Buffer.from(key).toString("hex");
  let address = addresses.get(id);
  if (!address) {
    address = ripemd160(sha256(key));
    if (addresses.size >= MAX_ADDRESSES) addresses.clear();
    addresses.set(id, address);
  }
  return Uint8Array.from(address);
}

function keyBytes(codec: Codec, type: string, value: Uint8Array): Uint8Array {
  return (codec.type(type).decode(value) as unknown as { key?: Uint8Array }).key ?? new Uint8Array();
}

/** The number of signatures a key stands for (ValidateSigCount). */
export function signatureCount(key: SignerKey): number {
  return key.kind === "multisig" ? key.keys.reduce((n, k) => n + signatureCount(k), 0) : 1;
}

/** The real gas of verifying a signature with this key (DefaultSigVerificationGasConsumer). */
export function verificationGas(key: SignerKey, params: { secp256k1: number; ed25519: number }): number {
  if (key.kind === "secp256k1") return params.secp256k1;
  if (key.kind === "ed25519") return params.ed25519;
  return key.keys.reduce((gas, k) => gas + verificationGas(k, params), 0);
}

/**
 * Verifies a signature: secp256k1 over SHA-256 of the sign bytes with low S
 * required; a multisig by its bit array, each present sub-signature with its
 * own mode. Returns false on any mismatch.
 */
export function verifySignature(codec: Codec, key: SignerKey, modeInfo: ProtoMessage | undefined, signature: Uint8Array, signBytes: SignBytesOf): boolean {
  if (key.kind === "secp256k1") {
    const single = modeInfo?.single as { mode?: number } | undefined;
    if (!single) return false;
    if (signature.length !== 64) return false;
    try {
      return verifySecp256k1(signature, signBytes(single.mode ?? 0), key.key);
    } catch {
      return false; // no sign bytes for this mode (e.g. amino over fields its doc cannot cover): the real log is a failed verification
    }
  }
  if (key.kind === "ed25519") return false; // refused for transactions, as the real ante handler does
  const multi = modeInfo?.multi as { bitarray?: { extra_bits_stored?: number; elems?: Uint8Array }; mode_infos?: ProtoMessage[] } | undefined;
  if (!multi) return false;
  const signatures = (codec.type("core.crypto.multisig.v1beta1.MultiSignature").decode(signature) as unknown as { signatures?: Uint8Array[] }).signatures ?? [];
  const bits = multi.bitarray?.elems ?? new Uint8Array();
  const size = (bits.length - (multi.bitarray?.extra_bits_stored ? 1 : 0)) * 8 + (multi.bitarray?.extra_bits_stored ?? 0);
  if (size !== key.keys.length || signatures.length < key.threshold) return false;
  const signers = key.keys.map((_, i) => (bits[i >> 3]! & (1 << (7 - (i % 8)))) !== 0);
  if (signers.filter(Boolean).length !== signatures.length) return false;
  let next = 0;
  for (const [i, signed] of signers.entries()) {
    if (!signed) continue;
    if (!verifySignature(codec, key.keys[i]!, multi.mode_infos?.[next], signatures[next]!, signBytes)) return false;
    next++;
  }
  return true;
}

/** Whether every signature of this signer is in LEGACY_AMINO_JSON (the v0.41 ante then skips the explicit sequence check). */
export function onlyLegacyAmino(modeInfo: ProtoMessage | undefined): boolean {
  const single = modeInfo?.single as { mode?: number } | undefined;
  if (single) return single.mode === SIGN_MODE_LEGACY_AMINO_JSON;
  const multi = modeInfo?.multi as { mode_infos?: ProtoMessage[] } | undefined;
  return !!multi && (multi.mode_infos ?? []).every(onlyLegacyAmino);
}

/** Whether any signature of this signer (a multisig's sub-signatures included) is in LEGACY_AMINO_JSON. */
export function usesLegacyAmino(modeInfo: ProtoMessage | undefined): boolean {
  const single = modeInfo?.single as { mode?: number } | undefined;
  if (single) return single.mode === SIGN_MODE_LEGACY_AMINO_JSON;
  const multi = modeInfo?.multi as { mode_infos?: ProtoMessage[] } | undefined;
  return !!multi && (multi.mode_infos ?? []).some(usesLegacyAmino);
}

/** Amino binary of a LegacyAminoPubKey (its address is SHA-256 of these bytes, first 20). */
function aminoMultisigBytes(threshold: number, keys: SignerKey[]): Uint8Array {
  const out: number[] = [0x22, 0xc1, 0xf7, 0xe2, 0x08, ...varint(threshold)];
  for (const key of keys) {
    const inner = aminoKeyBytes(key);
    out.push(0x12, ...varint(inner.length), ...inner);
  }
  return Uint8Array.from(out);
}

function aminoKeyBytes(key: SignerKey): number[] {
  if (key.kind === "secp256k1") return [0xeb, 0x5a, 0xe9, 0x87, 0x21, ...key.key];
  if (key.kind === "ed25519") return [0x16, 0x24, 0xde, 0x64, 0x20, ...key.key];
  return [...aminoMultisigBytes(key.threshold, key.keys)];
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}
