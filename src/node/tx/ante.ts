import { decodeBech32Address, encodeBech32Address } from "../../codec/bech32.js";
import { NonCanonicalEncodingError, rejectNonCanonical } from "../../codec/canonicalEncoding.js";
import { UnknownFieldError, rejectUnknownFields } from "../../codec/unknownFields.js";
import { moduleAddress } from "../../codec/addresses.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { sdkError, TxError } from "../abci/txError.js";
import { bytesEqual } from "../store/keyEncoding.js";
import { getAccount, setAccount, type StoredAccount } from "../modules/auth/keeper.js";
import { coinsFromProto, formatCoins, getBalance, sendCoins, type Coin } from "../modules/bank/keeper.js";
import type { ExecContext } from "../modules/nodeModule.js";
import type { DecodedTx } from "./decodeTx.js";
import { readAuthParams } from "./txParams.js";
import { onlyLegacyAmino, signatureCount, signerKeyFromAny, usesLegacyAmino, verificationGas, verifySignature, type SignerKey } from "./signerKeys.js";
import type { SignBytesFactory } from "./signBytes.js";
import { fieldText } from "../../codec/fieldText.js";

export type RunMode = "check" | "deliver" | "simulate";

export interface AnteOptions {
  mode: RunMode;
  /** The msgs' signers, in order and without repeats (the fee payer joins them here). */
  msgSigners: string[];
  /** Minimum gas prices of this node (CheckTx only). */
  minGasPrices: Array<{ denom: string; amount: bigint; scale: bigint }>;
  signBytes: SignBytesFactory;
}

/**
 * The real system's ante handler, decorator by decorator and in its order
 * (x/auth/ante NewAnteHandler, v0.41): extension options, mempool fee,
 * basic validation, timeout height, memo, tx size gas, public keys, signature
 * count, fee deduction, signature gas, signature verification, sequence increment.
 */
export async function runAnte(tx: DecodedTx, ctx: ExecContext, options: AnteOptions): Promise<void> {
  const { body, authInfo, raw } = tx;
  const auth = ctx.storeOf("auth");
  const fee = authInfo.fee ?? {};
  const feeCoins = coinsFromProto(fee.amount);
  const gasLimit = BigInt(fieldText(fee.gas_limit, "0"));

  if (((body.extension_options as unknown[]) ?? []).length > 0) throw sdkError("unknownExtensionOptions");

  if (options.mode === "check" && options.minGasPrices.length > 0) {
    const required = options.minGasPrices.map((p) => ({ denom: p.denom, amount: ceilDiv(p.amount * gasLimit, p.scale) }));
    const enough = required.some((r) => (feeCoins.find((c) => c.denom === r.denom)?.amount ?? 0n) >= r.amount);
    if (!enough) throw sdkError("insufficientFee", `insufficient fees; got: ${formatCoins(feeCoins) || "0"} required: ${formatCoins(required)}`);
  }

  const { signers, payer } = validateBasic(tx, options.msgSigners, ctx.chain.bech32Prefix, feeCoins);

  const timeout = BigInt(fieldText(body.timeout_height, "0"));
  if (timeout > 0n && BigInt(ctx.height) > timeout) throw sdkError("txTimeoutHeight", `block height: ${ctx.height}, timeout height: ${timeout}`);

  const params = await readAuthParams(auth, ctx.codec); // metered: reading params costs gas, as in the real app
  if (body.memo.length > params.maxMemoCharacters) {
    throw sdkError("memoTooLarge", `maximum number of characters is ${params.maxMemoCharacters} but received ${body.memo.length} characters`);
  }

  ctx.gas.consume(params.txSizeCostPerByte * tx.bytes.length, "txSize");

  // SetPubKeyDecorator: the key given with the tx must belong to the signer; it is stored on first use.
  const accounts: StoredAccount[] = [];
  const addresses = signers.map((s) => decodeBech32Address(s, ctx.chain.bech32Prefix, "signer"));
  for (const [i, signer] of signers.entries()) {
    const account = await getAccount(auth, ctx.codec, addresses[i]!);
    if (!account) throw sdkError("unknownAddress", `account ${signer} does not exist`);
    const given = authInfo.signer_infos[i]?.public_key as ProtoMessage | undefined;
    // the amino sign doc does not cover signer infos: a key that could be left out would give the tx a second hash
    if (!given?.type_url && options.mode !== "simulate" && usesLegacyAmino(authInfo.signer_infos[i]?.mode_info as ProtoMessage | undefined)) {
      throw sdkError("invalidPubKey", `signer ${signer} signs in SIGN_MODE_LEGACY_AMINO_JSON, so its signer info must carry its public key`);
    }
    if (given?.type_url) {
      const key = signerKeyFromAny(ctx.codec, given);
      if (!bytesEqual(key.address, addresses[i]!) && options.mode !== "simulate") {
        throw sdkError("invalidPubKey", `pubKey does not match signer address ${signer} with signer index: ${i}`);
      }
      if (!account.base.pub_key) {
        account.base.pub_key = given;
        setAccount(auth, ctx.codec, addresses[i]!, account);
      }
    }
    accounts.push(account);
  }

  const keys = accounts.map((account): SignerKey | undefined => {
    const stored = account.base.pub_key as ProtoMessage | undefined;
    return stored?.type_url ? signerKeyFromAny(ctx.codec, stored) : undefined;
  });
  const sigCount = keys.reduce((n, key) => n + (key ? signatureCount(key) : 1), 0);
  if (sigCount > params.txSigLimit) throw sdkError("tooManySignatures", `signatures: ${sigCount}, limit: ${params.txSigLimit}`);

  // DeductFeeDecorator: the fee payer pays, into the fee collector.
  if (!(await getAccount(auth, ctx.codec, decodeBech32Address(payer, ctx.chain.bech32Prefix, "fee payer")))) {
    throw sdkError("unknownAddress", `fee payer address: ${payer} does not exist`);
  }
  if (feeCoins.some((c) => c.amount > 0n)) await deductFee(ctx, payer, feeCoins);

  if (options.mode !== "simulate")
    for (const [i, key] of keys.entries()) if (key?.kind === "multisig") checkMultiSignature(ctx, raw.signatures[i] ?? new Uint8Array());

  for (const key of keys) {
    if (!key) {
      if (options.mode === "simulate") continue;
      throw sdkError("invalidPubKey", "pubkey on account is not set");
    }
    if (key.kind === "ed25519") throw sdkError("invalidPubKey", "ED25519 public keys are unsupported");
    ctx.gas.consume(verificationGas(key, { secp256k1: params.sigVerifyCostSecp256k1, ed25519: params.sigVerifyCostEd25519 }), `ante verify: ${key.kind}`);
  }

  for (const [i, account] of accounts.entries()) {
    const info = authInfo.signer_infos[i] ?? {};
    const modeInfo = info.mode_info as ProtoMessage | undefined;
    const sequence = BigInt(fieldText(account.base.sequence, "0"));
    const given = BigInt(fieldText(info.sequence, "0"));
    const legacy = onlyLegacyAmino(modeInfo);
    // v0.41 skipped this for amino signers (their sign doc holds the sequence), leaving the field free for
    // whoever relays the tx; SDK v0.44 checks every signer. Simulations keep the exemption: /txs-style
    // gas estimates run before the sequence is known, and nothing is signed or kept there.
    if ((!legacy || options.mode !== "simulate") && given !== sequence)
      throw sdkError("wrongSequence", `account sequence mismatch, expected ${sequence}, got ${given}`);
    if (options.mode !== "simulate") {
      const accountNumber = BigInt(fieldText(account.base.account_number, "0"));
      const signBytes = options.signBytes({ accountNumber, sequence, chainId: ctx.chain.chainId });
      const key = keys[i];
      if (!key || !verifySignature(ctx.codec, key, modeInfo, raw.signatures[i] ?? new Uint8Array(), signBytes)) {
        const what = legacy
          ? `account number (${accountNumber}), sequence (${sequence}) and chain-id (${ctx.chain.chainId})`
          : `account number (${accountNumber}) and chain-id (${ctx.chain.chainId})`;
        throw sdkError("unauthorized", `signature verification failed; please verify ${what}`);
      }
    }
  }

  for (const [i, account] of accounts.entries()) {
    account.base.sequence = (BigInt(fieldText(account.base.sequence, "0")) + 1n).toString();
    setAccount(auth, ctx.codec, addresses[i]!, account);
  }
}

/**
 * tx.ValidateBasic: fee, fee payer, gas, signatures present and one per
 * signer; each msg's own checks come with its handler. Returns the required
 * signers (GetSigners: the msgs' signers, then the fee payer when it is not
 * one of them) and the fee payer (fee.payer, else the first signer).
 */
function validateBasic(tx: DecodedTx, msgSigners: string[], prefix: string, fee: Coin[]): { signers: string[]; payer: string } {
  if (tx.msgs.length === 0) throw sdkError("invalidRequest", "must contain at least one message");
  for (const coin of fee) {
    if (coin.amount < 0n || !/^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/.test(coin.denom)) throw sdkError("insufficientFee", `invalid fee amount ${formatCoins(fee)}`);
  }
  const payer = feePayer(tx.authInfo.fee ?? {}, prefix);
  const signers = payer === undefined || msgSigners.includes(payer) ? msgSigners : [...msgSigners, payer];
  const signatures = tx.raw.signatures;
  if (signatures.length === 0) throw sdkError("noSignatures");
  if (signatures.length !== signers.length) throw sdkError("unauthorized", `wrong number of signers; expected ${signers.length}, got ${signatures.length}`);
  if (tx.authInfo.signer_infos.length !== signatures.length) {
    throw sdkError("unauthorized", `wrong number of signer infos; expected ${signatures.length}, got ${tx.authInfo.signer_infos.length}`);
  }
  return { signers, payer: payer ?? signers[0]! };
}

/** fee.payer in its canonical (lower-case) form; undefined when unset. A malformed address is the tx's "invalid address". */
function feePayer(fee: ProtoMessage, prefix: string): string | undefined {
  const payer = fieldText(fee.payer);
  if (payer === "") return undefined;
  try {
    return encodeBech32Address(prefix, decodeBech32Address(payer, prefix, "fee payer"));
  } catch (err) {
    throw sdkError("invalidAddress", `Invalid fee payer address (${(err as Error).message})`);
  }
}

/**
 * A multisig's signature bytes (a MultiSignature) are not covered by any
 * signature: unknown fields are refused as the real decoder does (an error
 * without a code: "undefined" 1), and so is any encoding but the deterministic one.
 */
function checkMultiSignature(ctx: ExecContext, bytes: Uint8Array): void {
  const MultiSignature = ctx.codec.type("core.crypto.multisig.v1beta1.MultiSignature");
  try {
    rejectUnknownFields(ctx.codec.root, MultiSignature, bytes);
    rejectNonCanonical(ctx.codec.root, MultiSignature, bytes);
  } catch (err) {
    if (err instanceof UnknownFieldError) throw new TxError("undefined", 1, "internal", "rejecting unrecognized fields found in MultiSignature");
    if (err instanceof NonCanonicalEncodingError) throw sdkError("txDecode", err.message);
    throw err;
  }
}

async function deductFee(ctx: ExecContext, payer: string, fee: Coin[]): Promise<void> {
  const collector = moduleAddress(ctx.chain.bech32Prefix, "fee_collector");
  try {
    await sendCoins(ctx, payer, collector, fee);
  } catch (err) {
    const e = err as { code?: number; codespace?: string };
    if (e.codespace === "sdk" && e.code === 5) {
      const balances = await balancesOf(ctx, payer, fee);
      throw sdkError("insufficientFunds", `insufficient funds to pay for fees; ${formatCoins(balances) || "0" + fee[0]!.denom} < ${formatCoins(fee)}`);
    }
    throw err;
  }
}

async function balancesOf(ctx: ExecContext, address: string, denoms: Coin[]): Promise<Coin[]> {
  const bytes = decodeBech32Address(address, ctx.chain.bech32Prefix, "payer");
  const out: Coin[] = [];
  for (const { denom } of denoms) {
    const amount = await getBalance(ctx.storeOf("bank"), bytes, denom);
    if (amount > 0n) out.push({ denom, amount });
  }
  return out;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
