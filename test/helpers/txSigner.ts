import { DirectSecp256k1Wallet, Registry, makeAuthInfoBytes, makeSignDoc, type EncodeObject, type GeneratedType } from "@cosmjs/proto-signing";
import { Secp256k1Wallet, makeSignDoc as makeAminoSignDoc, type AminoMsg, type StdFee } from "@cosmjs/amino";
import { makeCosmoshubPath } from "@cosmjs/amino";
import { Bip39, EnglishMnemonic, Slip10, Slip10Curve } from "@cosmjs/crypto";
import { TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { MsgSend, MsgMultiSend } from "cosmjs-types/cosmos/bank/v1beta1/tx";
import { MsgBeginRedelegate, MsgCreateValidator, MsgDelegate, MsgEditValidator, MsgUndelegate } from "cosmjs-types/cosmos/staking/v1beta1/tx";
import {
  MsgFundCommunityPool,
  MsgSetWithdrawAddress,
  MsgWithdrawDelegatorReward,
  MsgWithdrawValidatorCommission,
} from "cosmjs-types/cosmos/distribution/v1beta1/tx";
import { MsgDeposit, MsgSubmitProposal, MsgVote } from "cosmjs-types/cosmos/gov/v1beta1/tx";
import { MsgUnjail } from "cosmjs-types/cosmos/slashing/v1beta1/tx";
import { PubKey } from "cosmjs-types/cosmos/crypto/secp256k1/keys";
import { SignMode } from "cosmjs-types/cosmos/tx/signing/v1beta1/signing";
import protobuf from "protobufjs";
import { Codec } from "../../src/codec/codec.js";

/**
 * Builds and signs transactions with the cosmjs packages (a third-party
 * client), using the project's type URLs (core.* instead of cosmos.*, same wire format).
 */
const MSG_TYPES: Array<[string, unknown]> = [
  ["/core.bank.v1beta1.MsgSend", MsgSend],
  ["/core.bank.v1beta1.MsgMultiSend", MsgMultiSend],
  ["/core.staking.v1beta1.MsgCreateValidator", MsgCreateValidator],
  ["/core.staking.v1beta1.MsgEditValidator", MsgEditValidator],
  ["/core.staking.v1beta1.MsgDelegate", MsgDelegate],
  ["/core.staking.v1beta1.MsgUndelegate", MsgUndelegate],
  ["/core.staking.v1beta1.MsgBeginRedelegate", MsgBeginRedelegate],
  ["/core.distribution.v1beta1.MsgSetWithdrawAddress", MsgSetWithdrawAddress],
  ["/core.distribution.v1beta1.MsgWithdrawDelegatorReward", MsgWithdrawDelegatorReward],
  ["/core.distribution.v1beta1.MsgWithdrawValidatorCommission", MsgWithdrawValidatorCommission],
  ["/core.distribution.v1beta1.MsgFundCommunityPool", MsgFundCommunityPool],
  ["/core.gov.v1beta1.MsgSubmitProposal", MsgSubmitProposal],
  ["/core.gov.v1beta1.MsgDeposit", MsgDeposit],
  ["/core.gov.v1beta1.MsgVote", MsgVote],
  ["/core.slashing.v1beta1.MsgUnjail", MsgUnjail],
];

/**
 * The extension and hub modules' Msgs (no cosmjs-types exist for them): the project's protobufjs
 * types as cosmjs GeneratedTypes. Their values use the proto field names (snake_case).
 */
function projectMsgTypes(): Array<[string, GeneratedType]> {
  const codec = new Codec();
  const msgs: Array<[string, GeneratedType]> = [];
  const visit = (namespace: protobuf.NamespaceBase) => {
    for (const nested of namespace.nestedArray) {
      if (nested instanceof protobuf.Type && /^Msg(?!.*Response$)/.test(nested.name)) {
        const type = nested;
        msgs.push([
          `/${type.fullName.slice(1)}`,
          {
            encode: (message: Record<string, unknown>, writer?: protobuf.Writer) => type.encode(type.fromObject(message), writer),
            decode: (input: Uint8Array) => type.toObject(type.decode(input)),
            fromPartial: (object: Record<string, unknown>) => object,
          },
        ]);
      } else if (nested instanceof protobuf.Namespace) visit(nested);
    }
  };
  for (const root of ["extmod", "hubmod"]) visit(codec.root.lookup(root) as protobuf.Namespace);
  return msgs;
}

export const registry = new Registry([...MSG_TYPES.map(([url, type]): [string, GeneratedType] => [url, type as GeneratedType]), ...projectMsgTypes()]);

export interface TestSigner {
  address: string;
  pubkey: Uint8Array;
  signDirect(bodyBytes: Uint8Array, authInfoBytes: Uint8Array, chainId: string, accountNumber: number): Promise<Uint8Array>;
  signAmino(doc: ReturnType<typeof makeAminoSignDoc>): Promise<Uint8Array>;
}

export async function testSigner(mnemonic: string, index: number, prefix = "hub"): Promise<TestSigner> {
  return (await signersOf(mnemonic, [index], prefix))[0]!;
}

/**
 * Signers of accounts 0..count-1 of one mnemonic. Each account's key is derived once (cosmjs'
 * Bip39 and Slip10) and signs through cosmjs' one-key wallets: an HD wallet of N accounts derives
 * all N keys again at every signature, which made many-sender loads bound by the signing client.
 */
export function testSigners(mnemonic: string, count: number, prefix = "hub"): Promise<TestSigner[]> {
  return signersOf(mnemonic, [...Array(count).keys()], prefix);
}

async function signersOf(mnemonic: string, indexes: number[], prefix: string): Promise<TestSigner[]> {
  const seed = await Bip39.mnemonicToSeed(new EnglishMnemonic(mnemonic));
  return Promise.all(
    indexes.map(async (index) => {
      const { privkey } = Slip10.derivePath(Slip10Curve.Secp256k1, seed, makeCosmoshubPath(index));
      const direct = await DirectSecp256k1Wallet.fromKey(privkey, prefix);
      const amino = await Secp256k1Wallet.fromKey(privkey, prefix);
      const [account] = await direct.getAccounts();
      return {
        address: account!.address,
        pubkey: account!.pubkey,
        async signDirect(bodyBytes, authInfoBytes, chainId, accountNumber) {
          const { signature } = await direct.signDirect(account!.address, makeSignDoc(bodyBytes, authInfoBytes, chainId, accountNumber));
          return Buffer.from(signature.signature, "base64");
        },
        async signAmino(doc) {
          const { signature } = await amino.signAmino(account!.address, doc);
          return Buffer.from(signature.signature, "base64");
        },
      } satisfies TestSigner;
    }),
  );
}

export function pubkeyAny(pubkey: Uint8Array) {
  return { typeUrl: "/core.crypto.secp256k1.PubKey", value: PubKey.encode({ key: pubkey }).finish() };
}

/** One signer of a transaction: its on-chain numbers, and what it signs if a test wants it to sign something else. */
export interface SignerSlot {
  signer: TestSigner;
  accountNumber: number;
  sequence: number;
  /** Sign with this chain id / account number / sequence instead (a tx meant for another chain, account or sequence). */
  signChainId?: string;
  signAccountNumber?: number;
  signSequence?: number;
  /** Replace the signer-info public key. */
  pubkey?: Uint8Array;
}

export interface TxContent {
  messages: EncodeObject[];
  /** The same messages in amino JSON (LEGACY_AMINO_JSON signing). */
  aminoMsgs?: AminoMsg[];
  memo?: string;
  timeoutHeight?: bigint;
  fee?: Array<{ denom: string; amount: string }>;
  gas?: number;
  chainId?: string;
  /** fee.payer and fee.granter (in the amino sign doc's fee too, as cosmjs signs them). */
  payer?: string;
  granter?: string;
  /** Bytes the signers themselves append to the body before signing (e.g. non-critical fields). */
  bodyExtension?: Uint8Array;
}

/**
 * A TxRaw signed by each slot's signer, in SIGN_MODE_DIRECT (over the body
 * and auth info bytes) or in SIGN_MODE_LEGACY_AMINO_JSON (over the amino
 * sign doc, as SigningStargateClient does for an amino signer).
 */
export async function signedTx(mode: "direct" | "amino", slots: SignerSlot[], content: TxContent): Promise<Uint8Array> {
  const chainId = content.chainId ?? "devnet-1";
  const memo = content.memo ?? "";
  const fee: StdFee = {
    amount: content.fee ?? [{ denom: "uhub", amount: "2000" }],
    gas: String(content.gas ?? 200_000),
    granter: content.granter,
    payer: content.payer,
  };
  const body = registry.encode({
    typeUrl: "/cosmos.tx.v1beta1.TxBody",
    value: { messages: content.messages, memo, timeoutHeight: content.timeoutHeight ?? 0n },
  });
  const bodyBytes = content.bodyExtension ? Uint8Array.from([...body, ...content.bodyExtension]) : body;
  const signMode = mode === "direct" ? SignMode.SIGN_MODE_DIRECT : SignMode.SIGN_MODE_LEGACY_AMINO_JSON;
  const authInfoBytes = makeAuthInfoBytes(
    slots.map((slot) => ({ pubkey: pubkeyAny(slot.pubkey ?? slot.signer.pubkey), sequence: slot.sequence })),
    fee.amount,
    Number(fee.gas),
    content.granter,
    content.payer,
    signMode,
  );
  const signatures = await Promise.all(
    slots.map((slot) => {
      const signChainId = slot.signChainId ?? chainId;
      const accountNumber = slot.signAccountNumber ?? slot.accountNumber;
      if (mode === "direct") return slot.signer.signDirect(bodyBytes, authInfoBytes, signChainId, accountNumber);
      const aminoMsgs = content.aminoMsgs ?? [];
      return slot.signer.signAmino(
        makeAminoSignDoc(aminoMsgs, fee, signChainId, memo, accountNumber, slot.signSequence ?? slot.sequence, content.timeoutHeight),
      );
    }),
  );
  return TxRaw.encode({ bodyBytes, authInfoBytes, signatures }).finish();
}

export type TxOptions = TxContent & Omit<SignerSlot, "signer">;

/** A TxRaw signed in SIGN_MODE_DIRECT by one signer. */
export function directTx(signer: TestSigner, options: TxOptions): Promise<Uint8Array> {
  return signedTx("direct", [{ ...options, signer }], options);
}

/** A TxRaw signed in SIGN_MODE_LEGACY_AMINO_JSON by one signer. */
export function aminoTx(signer: TestSigner, options: TxOptions & { aminoMsgs: AminoMsg[] }): Promise<Uint8Array> {
  return signedTx("amino", [{ ...options, signer }], options);
}

export function send(from: string, to: string, amount: string, denom = "uhub"): EncodeObject {
  return { typeUrl: "/core.bank.v1beta1.MsgSend", value: MsgSend.fromPartial({ fromAddress: from, toAddress: to, amount: [{ denom, amount }] }) };
}

export function aminoSend(from: string, to: string, amount: string, denom = "uhub"): AminoMsg {
  return { type: "core-sdk/MsgSend", value: { from_address: from, to_address: to, amount: [{ denom, amount }] } };
}
