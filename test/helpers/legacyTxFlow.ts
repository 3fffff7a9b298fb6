import { expect } from "chai";
import type { StdFee } from "@cosmjs/amino";
import { http, type HttpAnswer } from "./http.js";
import type { AminoWallet } from "./aminoWallet.js";

export const LEGACY_FEE: StdFee = { amount: [{ denom: "uhub", amount: "2000" }], gas: "400000" };

/**
 * The legacy flow a user of the real server followed: a generate-only POST (or PUT) builds the
 * unsigned StdTx, the wallet signs its StdSignDoc, POST /txs broadcasts it (mode block).
 * Answers the /txs response; tracks each wallet's sequence.
 */
export class LegacyTxFlow {
  private readonly sequences = new Map<string, number>();

  constructor(private readonly restUrl: () => string) {}

  post(route: string, body: unknown, method = "POST"): Promise<HttpAnswer> {
    return http(`${this.restUrl()}${route}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  }

  /** Generates with `route` and `fields` for `wallet`, signs, broadcasts; the /txs answer. */
  async send(wallet: AminoWallet, route: string, fields: Record<string, unknown>, method = "POST"): Promise<HttpAnswer> {
    const generated = await this.post(
      route,
      { base_req: { from: wallet.address, chain_id: "devnet-1", fees: LEGACY_FEE.amount, gas: LEGACY_FEE.gas }, ...fields },
      method,
    );
    expect(generated.status, generated.text).to.equal(200);
    const unsigned = generated.body.value;
    const sequence = this.sequences.get(wallet.address) ?? 0;
    const signature = await wallet.sign(unsigned.msg, unsigned.fee, unsigned.memo, sequence);
    const sent = await this.post("/txs", { tx: { ...unsigned, signatures: [signature] }, mode: "block" });
    expect(sent.status, sent.text).to.equal(200);
    // a transaction in a block used the sequence (even if its messages failed); one refused before (height 0) did not
    if (sent.body.height !== undefined && sent.body.height !== "0") this.sequences.set(wallet.address, sequence + 1);
    return sent;
  }
}
