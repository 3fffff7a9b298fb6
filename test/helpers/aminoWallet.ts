import { Secp256k1HdWallet, makeCosmoshubPath, makeSignDoc, type AminoMsg, type StdFee, type StdSignature } from "@cosmjs/amino";
import { TEST_MNEMONIC } from "./devNode.js";

export interface AminoWallet {
  address: string;
  accountNumber: number;
  sign(msgs: AminoMsg[], fee: StdFee, memo: string, sequence: number): Promise<StdSignature>;
}

/** Dev account `index` signing StdSignDocs with @cosmjs/amino's Secp256k1HdWallet (the project's prefix, its amino names in the msgs). */
export async function aminoWallet(index: number, chainId = "devnet-1"): Promise<AminoWallet> {
  const hd = await Secp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: [makeCosmoshubPath(index)] });
  const [account] = await hd.getAccounts();
  return {
    address: account!.address,
    accountNumber: index,
    async sign(msgs, fee, memo, sequence) {
      return (await hd.signAmino(account!.address, makeSignDoc(msgs, fee, chainId, memo, index, sequence))).signature;
    },
  };
}
