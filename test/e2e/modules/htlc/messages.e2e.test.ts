import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { aminoWallet } from "../../../helpers/aminoWallet.js";
import { TEST_MNEMONIC } from "../../../helpers/devNode.js";
import { LegacyTxFlow } from "../../../helpers/legacyTxFlow.js";
import { createHtlcFields } from "../../../helpers/htlcFields.js";
import { useStartedDevChain } from "../../../helpers/startedDevChain.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** An HTLC created and claimed through the legacy generate routes (signed with @cosmjs/amino, POST /txs), read back on both families. */
describe("e2e: htlc transactions", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain({ accounts: 4, mnemonic: TEST_MNEMONIC });
  const flow = new LegacyTxFlow(() => chain.node().restUrl);
  const secret = sha256(new TextEncoder().encode("e2e secret"));
  const hashLock = hex(sha256(secret));

  it("creates an HTLC with POST /htlc/htlcs: both families show it open, the coins locked", async () => {
    const [sender, to] = await Promise.all([aminoWallet(1), aminoWallet(2)]);
    const sent = await flow.send(sender, "/htlc/htlcs", createHtlcFields(sender.address, to.address, hashLock, 100));
    expect(sent.body.code, sent.body.raw_log).to.equal(undefined);
    expect((await chain.ok(`/extmod/htlc/htlcs/${hashLock}`)).htlc).to.include({
      sender: sender.address,
      to: to.address,
      state: "HTLC_STATE_OPEN",
      secret: "",
    });
    expect((await chain.ok(`/htlc/htlcs/${hashLock}`)).result).to.deep.include({ sender: sender.address, to: to.address });
  });

  it("refuses a claim with the wrong secret, then the right one completes it and pays the recipient", async () => {
    const [claimer, to] = await Promise.all([aminoWallet(3), aminoWallet(2)]);
    const wrong = await flow.send(claimer, `/htlc/htlcs/${hashLock}/claim`, { sender: claimer.address, secret: hex(sha256(secret)) });
    expect([wrong.body.codespace, wrong.body.code]).to.deep.equal(["htlc", 4]);
    const before = BigInt((await chain.ok(`/core/bank/v1beta1/balances/${to.address}/uhub`)).balance.amount);
    const claimed = await flow.send(claimer, `/htlc/htlcs/${hashLock}/claim`, { sender: claimer.address, secret: hex(secret) });
    expect(claimed.body.code, claimed.body.raw_log).to.equal(undefined);
    expect((await chain.ok(`/extmod/htlc/htlcs/${hashLock}`)).htlc).to.include({ state: "HTLC_STATE_COMPLETED", secret: hex(secret).toUpperCase() });
    expect(BigInt((await chain.ok(`/core/bank/v1beta1/balances/${to.address}/uhub`)).balance.amount) - before).to.equal(7000n);
  });
});
