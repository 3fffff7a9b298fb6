import { DirectSecp256k1HdWallet, makeSignDoc } from "@cosmjs/proto-signing";
import { makeCosmoshubPath } from "@cosmjs/amino";
import type { ChainClient } from "../client/chainClient.js";
import type { Codec } from "../codec/codec.js";
import { profileTypeUrl } from "../codec/typeRegistry.js";

export interface Coin {
  denom: string;
  amount: string;
}

/** Gas of one faucet send (a MsgSend costs far less); the fee is this at the node's minimum gas price. */
const SEND_GAS = 200_000n;
/** The ante handler's code for a wrong sequence (sdk 32): someone else signed with the faucet's account meanwhile. */
const WRONG_SEQUENCE = 32;

/**
 * Sends coins from one funded genesis account, signed SIGN_MODE_DIRECT with
 * its key (from the dev mnemonic) and broadcast like any client's transaction
 * (CheckTx, the mempool, a block). Sends run one at a time; the sequence is
 * kept here and read again from the chain when CheckTx says it is wrong.
 */
export class FaucetSender {
  private queue: Promise<unknown> = Promise.resolve();
  private account: { number: bigint; sequence: bigint } | undefined;

  private constructor(
    private readonly client: ChainClient,
    private readonly codec: Codec,
    private readonly chainId: string,
    private readonly wallet: DirectSecp256k1HdWallet,
    readonly address: string,
    private readonly fee: Coin[],
  ) {}

  static async open(options: { client: ChainClient; codec: Codec; chainId: string; prefix: string; mnemonic: string; index: number; fee: Coin[] }) {
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(options.mnemonic, { prefix: options.prefix, hdPaths: [makeCosmoshubPath(options.index)] });
    const [account] = await wallet.getAccounts();
    return new FaucetSender(options.client, options.codec, options.chainId, wallet, account!.address, options.fee);
  }

  /** The fee at a gas price like "0.025uhub" (the first of minimum-gas-prices), rounded up; none when the node takes any fee. */
  static feeAt(minimumGasPrices: string): Coin[] {
    const first = /^(\d+)(?:\.(\d+))?([a-zA-Z][a-zA-Z0-9/:._-]*)/.exec(minimumGasPrices);
    if (!first) return [];
    const decimals = first[2] ?? "";
    const scaled = BigInt(first[1]! + decimals) * SEND_GAS;
    const unit = 10n ** BigInt(decimals.length);
    return [{ denom: first[3]!, amount: ((scaled + unit - 1n) / unit).toString() }];
  }

  /** Sends `coin` to `to`; resolves once CheckTx accepted the transaction (it is in the next block). */
  send(to: string, coin: Coin): Promise<void> {
    const sent = this.queue.then(() => this.sendNow(to, coin, true));
    this.queue = sent.catch(() => undefined);
    return sent;
  }

  private async sendNow(to: string, coin: Coin, mayRetry: boolean): Promise<void> {
    const account = this.account ?? (await this.readAccount());
    const result = await this.client.broadcastTx(await this.signedSend(to, coin, account), "sync");
    if (result.code === 0) {
      this.account = { number: account.number, sequence: account.sequence + 1n };
      return;
    }
    this.account = undefined;
    if (result.code === WRONG_SEQUENCE && result.codespace === "sdk" && mayRetry) return this.sendNow(to, coin, false);
    throw new Error(`the faucet's send was refused: ${result.codespace} ${result.code}: ${result.log}`);
  }

  private async readAccount(): Promise<{ number: bigint; sequence: bigint }> {
    const request = this.codec.type("core.auth.v1beta1.QueryAccountRequest").encode({ address: this.address }).finish();
    const answer = await this.client.abciQuery(profileTypeUrl("/core.auth.v1beta1.Query/Account"), request);
    if (answer.code !== 0) throw new Error(`the faucet's account ${this.address} is not on the chain: ${answer.log}`);
    const any = this.codec.type("core.auth.v1beta1.QueryAccountResponse").decode(answer.value) as unknown as { account: { value: Uint8Array } };
    const base = this.codec.type("core.auth.v1beta1.BaseAccount").toObject(this.codec.type("core.auth.v1beta1.BaseAccount").decode(any.account.value), {
      longs: String,
    }) as { account_number?: string; sequence?: string };
    return { number: BigInt(base.account_number ?? "0"), sequence: BigInt(base.sequence ?? "0") };
  }

  private async signedSend(to: string, coin: Coin, account: { number: bigint; sequence: bigint }): Promise<Uint8Array> {
    const type = (name: string) => this.codec.type(name);
    const message = type("core.bank.v1beta1.MsgSend")
      .encode({ from_address: this.address, to_address: to, amount: [coin] })
      .finish();
    const bodyBytes = type("core.tx.v1beta1.TxBody")
      .encode({ messages: [{ type_url: profileTypeUrl("/core.bank.v1beta1.MsgSend"), value: message }], memo: "faucet" })
      .finish();
    const [signer] = await this.wallet.getAccounts();
    const publicKey = type("core.crypto.secp256k1.PubKey").encode({ key: signer!.pubkey }).finish();
    const authInfoBytes = type("core.tx.v1beta1.AuthInfo")
      .encode({
        signer_infos: [
          {
            public_key: { type_url: profileTypeUrl("/core.crypto.secp256k1.PubKey"), value: publicKey },
            mode_info: { single: { mode: 1 } }, // SIGN_MODE_DIRECT
            sequence: account.sequence.toString(),
          },
        ],
        fee: { amount: this.fee, gas_limit: SEND_GAS.toString() },
      })
      .finish();
    const { signature } = await this.wallet.signDirect(this.address, makeSignDoc(bodyBytes, authInfoBytes, this.chainId, Number(account.number)));
    return type("core.tx.v1beta1.TxRaw")
      .encode({ body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, signatures: [Buffer.from(signature.signature, "base64")] })
      .finish();
  }
}
