import { expect } from "chai";
import type { StdFee } from "@cosmjs/amino";
import { aminoWallet } from "../helpers/aminoWallet.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { http } from "../helpers/http.js";
import { pollUntil } from "../helpers/poll.js";
import { useStartedDevChain } from "../helpers/startedDevChain.js";
import { aminoSend, directTx, send, testSigner } from "../helpers/txSigner.js";

const FEE: StdFee = { amount: [{ denom: "uhub", amount: "2000" }], gas: "200000" };

/**
 * CheckTx runs on a check state that each accepted transaction advances
 * (sequence, fees) and that each commit resets: two transactions of one
 * account signed for sequences N and N+1, posted back to back in sync mode,
 * are both accepted and both committed — for both broadcast families.
 */
describe("e2e: CheckTx against the advancing check state", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain({ mnemonic: TEST_MNEMONIC, accounts: 4 });
  const post = (route: string, body: unknown) =>
    http(`${chain.node().restUrl}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const sequenceOf = async (address: string): Promise<number> => {
    const answer = await chain.ok(`/core/auth/v1beta1/accounts/${address}`);
    return Number(answer.account.sequence);
  };

  it("legacy POST /txs (sync): amino-signed StdTxs for sequences N and N+1 are both accepted and committed", async () => {
    const wallet = await aminoWallet(1);
    const to = chain.accounts()[2]!;
    const n = await sequenceOf(wallet.address);
    const hashes: string[] = [];
    for (const sequence of [n, n + 1]) {
      const msgs = [aminoSend(wallet.address, to, String(10 + sequence))];
      const signature = await wallet.sign(msgs, FEE, "", sequence);
      const answer = await post("/txs", { tx: { msg: msgs, fee: FEE, signatures: [signature], memo: "" }, mode: "sync" });
      expect(answer.status, answer.text).to.equal(200);
      expect(answer.body.code ?? 0, answer.text).to.equal(0);
      hashes.push(answer.body.txhash);
    }
    for (const hash of hashes) {
      const found = await pollUntil(
        () => http(`${chain.node().restUrl}/txs/${hash}`),
        (r) => r.status === 200,
      );
      expect(found.body.code ?? 0, found.text).to.equal(0);
    }
    expect(await sequenceOf(wallet.address)).to.equal(n + 2);
  });

  it("gateway POST /core/tx/v1beta1/txs (sync): cosmjs-signed txs for sequences N and N+1 are both accepted and committed", async () => {
    const signer = await testSigner(TEST_MNEMONIC, 3);
    const to = chain.accounts()[2]!;
    const n = await sequenceOf(signer.address);
    const hashes: string[] = [];
    for (const sequence of [n, n + 1]) {
      const bytes = await directTx(signer, { accountNumber: 3, sequence, messages: [send(signer.address, to, String(10 + sequence))] });
      const answer = await post("/core/tx/v1beta1/txs", { tx_bytes: Buffer.from(bytes).toString("base64"), mode: "BROADCAST_MODE_SYNC" });
      expect(answer.status, answer.text).to.equal(200);
      expect(answer.body.tx_response.code, answer.text).to.equal(0);
      hashes.push(answer.body.tx_response.txhash);
    }
    for (const hash of hashes) {
      const found = await pollUntil(
        () => http(`${chain.node().restUrl}/core/tx/v1beta1/txs/${hash}`),
        (r) => r.status === 200,
      );
      expect(found.body.tx_response.code, found.text).to.equal(0);
    }
    expect(await sequenceOf(signer.address)).to.equal(n + 2);
  });
});
