import type { Codec } from "../../codec/codec.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import type { AminoJsonRenderer } from "../../codec/amino/aminoJson.js";
import { stdSignBytes } from "../../codec/amino/stdSignDoc.js";
import { sdkError } from "../abci/txError.js";
import type { DecodedTx } from "./decodeTx.js";
import { SIGN_MODE_DIRECT, SIGN_MODE_LEGACY_AMINO_JSON, type SignBytesOf } from "./signerKeys.js";
import { fieldText } from "../../codec/fieldText.js";

interface SignerData {
  accountNumber: bigint;
  sequence: bigint;
  chainId: string;
}

/** The sign bytes of one signer in each sign mode, built from the on-chain account number and sequence. */
export type SignBytesFactory = (signer: SignerData) => SignBytesOf;

export function signBytesFactory(codec: Codec, amino: AminoJsonRenderer, tx: DecodedTx): SignBytesFactory {
  let aminoParts: ReturnType<typeof aminoDocParts> | undefined;
  return (signer) => (mode) => {
    if (mode === SIGN_MODE_DIRECT) {
      // proto3 leaves zero values off the wire; protobufjs would write a field that is set, so leave them unset
      const doc: ProtoMessage = {};
      if (tx.raw.body_bytes.length) doc.body_bytes = tx.raw.body_bytes;
      if (tx.raw.auth_info_bytes.length) doc.auth_info_bytes = tx.raw.auth_info_bytes;
      if (signer.chainId) doc.chain_id = signer.chainId;
      if (signer.accountNumber !== 0n) doc.account_number = signer.accountNumber.toString();
      return codec.type("core.tx.v1beta1.SignDoc").encode(doc).finish();
    }
    if (mode === SIGN_MODE_LEGACY_AMINO_JSON) {
      refuseWhatAminoDoesNotSign(tx);
      aminoParts ??= aminoDocParts(codec, amino, tx);
      return stdSignBytes({
        chainId: signer.chainId,
        accountNumber: signer.accountNumber.toString(),
        sequence: signer.sequence.toString(),
        timeoutHeight: fieldText(tx.body.timeout_height, "0"),
        fee: aminoParts.fee,
        memo: tx.body.memo,
        msgs: aminoParts.msgs,
      });
    }
    throw sdkError("notSupported", `signature mode ${mode} is not supported`);
  };
}

/**
 * The amino sign doc does not cover unknown fields nor extension options, so
 * a relayer could add them without breaking the signature (and change the
 * tx's hash): the real handler refuses them, and the ante handler reports
 * its failure as a failed signature verification.
 */
function refuseWhatAminoDoesNotSign(tx: DecodedTx): void {
  if (tx.bodyHasUnknownNonCriticals) {
    throw sdkError(
      "invalidRequest",
      "protobuf transaction contains unknown non-critical fields. This is a transaction malleability issue and SIGN_MODE_LEGACY_AMINO_JSON cannot be used.",
    );
  }
  const options = [...((tx.body.extension_options as unknown[]) ?? []), ...((tx.body.non_critical_extension_options as unknown[]) ?? [])];
  if (options.length > 0) throw sdkError("invalidRequest", "SIGN_MODE_LEGACY_AMINO_JSON does not support protobuf extension options.");
}

function aminoDocParts(codec: Codec, amino: AminoJsonRenderer, tx: DecodedTx) {
  const Coin = codec.type("core.base.v1beta1.Coin");
  const fee = tx.authInfo.fee ?? {};
  return {
    msgs: tx.msgs.map(({ any }) => amino.renderAny(any)),
    fee: {
      amount: ((fee.amount ?? []) as ProtoMessage[]).map((coin) => amino.render(Coin, coin)),
      gas: fieldText(fee.gas_limit, "0"),
      payer: fieldText(fee.payer),
      granter: fieldText(fee.granter),
    },
  };
}
