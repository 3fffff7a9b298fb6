import type { Codec } from "../../codec/codec.js";
import type { KVReader } from "../store/kv.js";

/** The auth params the ante handler reads (x/auth Params). */
export interface AuthParams {
  maxMemoCharacters: number;
  txSigLimit: number;
  txSizeCostPerByte: number;
  sigVerifyCostEd25519: number;
  sigVerifyCostSecp256k1: number;
}

export async function readAuthParams(auth: KVReader, codec: Codec): Promise<AuthParams> {
  const bytes = await auth.get(Uint8Array.of(0x00));
  const p = bytes
    ? (codec.type("core.auth.v1beta1.Params").toObject(codec.type("core.auth.v1beta1.Params").decode(bytes), { longs: Number }) as Record<string, number>)
    : {};
  return {
    maxMemoCharacters: p.max_memo_characters ?? 256,
    txSigLimit: p.tx_sig_limit ?? 7,
    txSizeCostPerByte: p.tx_size_cost_per_byte ?? 10,
    sigVerifyCostEd25519: p.sig_verify_cost_ed25519 ?? 590,
    sigVerifyCostSecp256k1: p.sig_verify_cost_secp256k1 ?? 1000,
  };
}
