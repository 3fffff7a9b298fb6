import { sha256 } from "@noble/hashes/sha2.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import {
  createMultisigThresholdPubkey,
  encodeSecp256k1Pubkey,
  makeSignDoc as makeAminoSignDoc,
  pubkeyToAddress,
  type AminoMsg,
  type MultisigThresholdPubkey,
  type StdFee,
} from "@cosmjs/amino";
import { AuthInfo, TxBody, TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { SignMode } from "cosmjs-types/cosmos/tx/signing/v1beta1/signing";
import { LegacyAminoPubKey } from "cosmjs-types/cosmos/crypto/multisig/keys";
import { MultiSignature } from "cosmjs-types/cosmos/crypto/multisig/v1beta1/multisig";
import { concat } from "../helpers/protoWire.js";
import { pubkeyAny, registry, type TestSigner } from "../helpers/txSigner.js";
import type { EncodeObject } from "@cosmjs/proto-signing";

/**
 * A seeded source of choices (SHA-256 of seed and counter), so that a
 * failing run is repeated exactly with FORGERY_SEED=<the printed seed>.
 */
export class SeededChoices {
  private counter = 0;
  constructor(readonly seed: string) {}

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    const digest = sha256(new TextEncoder().encode(`${this.seed}:${this.counter++}`));
    const value = new DataView(digest.buffer, digest.byteOffset).getUint32(0);
    return min + (value % (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  bytes(length: number): Uint8Array {
    return Uint8Array.from({ length }, () => this.int(0, 255));
  }
}

/** A TxRaw with its parts changed (body, auth info, signatures), encoded as cosmjs encodes it. */
export function withRaw(bytes: Uint8Array, change: (raw: TxRaw) => Partial<TxRaw>): Uint8Array {
  const raw = TxRaw.decode(bytes);
  return TxRaw.encode({ ...raw, ...change(raw) }).finish();
}

export function withBody(bytes: Uint8Array, change: (body: TxBody) => Partial<TxBody>): Uint8Array {
  return withRaw(bytes, (raw) => {
    const body = TxBody.decode(raw.bodyBytes);
    return { bodyBytes: TxBody.encode({ ...body, ...change(body) }).finish() };
  });
}

export function withAuthInfo(bytes: Uint8Array, change: (authInfo: AuthInfo) => Partial<AuthInfo>): Uint8Array {
  return withRaw(bytes, (raw) => {
    const authInfo = AuthInfo.decode(raw.authInfoBytes);
    return { authInfoBytes: AuthInfo.encode({ ...authInfo, ...change(authInfo) }).finish() };
  });
}

/** The same ECDSA signature with s replaced by n - s: valid math, but high-S (refused to keep signatures unique). */
export function highS(signature: Uint8Array): Uint8Array {
  const n = secp256k1.Point.CURVE().n;
  const s = BigInt("0x" + Buffer.from(signature.subarray(32)).toString("hex"));
  const flipped = (n - s).toString(16).padStart(64, "0");
  return concat(signature.subarray(0, 32), Buffer.from(flipped, "hex"));
}

// --- a legacy amino multisig account, signed by cosmjs wallets ---

export interface Multisig {
  address: string;
  pubkey: MultisigThresholdPubkey;
  /** The members in the key's order (cosmjs sorts them). */
  members: TestSigner[];
  /** The LegacyAminoPubKey Any, with the project's type URLs. */
  any(): { typeUrl: string; value: Uint8Array };
}

export function multisigOf(signers: TestSigner[], threshold: number, prefix = "hub"): Multisig {
  const pubkey = createMultisigThresholdPubkey(
    signers.map((s) => encodeSecp256k1Pubkey(s.pubkey)),
    threshold,
  );
  const members = pubkey.value.pubkeys.map((k) => signers.find((s) => Buffer.from(s.pubkey).toString("base64") === k.value)!);
  return {
    address: pubkeyToAddress(pubkey, prefix),
    pubkey,
    members,
    any: () => ({
      typeUrl: "/core.crypto.multisig.LegacyAminoPubKey",
      value: LegacyAminoPubKey.encode({ threshold: threshold, publicKeys: members.map((m) => pubkeyAny(m.pubkey)) }).finish(),
    }),
  };
}

/** A CompactBitArray of `size` bits with the given ones set (big-endian within each byte, as amino writes it). */
function bitArray(size: number, set: number[]): { extraBitsStored: number; elems: Uint8Array } {
  const elems = new Uint8Array(Math.ceil(size / 8));
  for (const i of set) elems[i >> 3]! |= 1 << (7 - (i % 8));
  return { extraBitsStored: size % 8, elems };
}

/**
 * A tx from a multisig account signed in LEGACY_AMINO_JSON by some of its
 * members: `bits` marks who signed, `signatures` are theirs in that order
 * (a test may pass other ones).
 */
export async function multisigAminoTx(
  multisig: Multisig,
  options: {
    messages: EncodeObject[];
    aminoMsgs: AminoMsg[];
    accountNumber: number;
    sequence: number;
    chainId?: string;
    fee?: StdFee;
    signing: number[];
    signatures?: (signed: Uint8Array[]) => Uint8Array[];
  },
): Promise<Uint8Array> {
  const fee = options.fee ?? { amount: [{ denom: "uhub", amount: "4000" }], gas: "400000" };
  const doc = makeAminoSignDoc(options.aminoMsgs, fee, options.chainId ?? "devnet-1", "", options.accountNumber, options.sequence);
  const signed = await Promise.all(options.signing.map((i) => multisig.members[i]!.signAmino(doc)));
  const signatures = options.signatures ? options.signatures(signed) : signed;
  const bodyBytes = registry.encode({ typeUrl: "/cosmos.tx.v1beta1.TxBody", value: { messages: options.messages, memo: "" } });
  const authInfoBytes = AuthInfo.encode({
    signerInfos: [
      {
        publicKey: multisig.any(),
        modeInfo: {
          multi: {
            bitarray: bitArray(multisig.members.length, options.signing),
            modeInfos: signatures.map(() => ({ single: { mode: SignMode.SIGN_MODE_LEGACY_AMINO_JSON } })),
          },
        },
        sequence: BigInt(options.sequence),
      },
    ],
    fee: { amount: [...fee.amount], gasLimit: BigInt(fee.gas), payer: "", granter: "" },
  }).finish();
  return TxRaw.encode({ bodyBytes, authInfoBytes, signatures: [MultiSignature.encode({ signatures }).finish()] }).finish();
}

export const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
