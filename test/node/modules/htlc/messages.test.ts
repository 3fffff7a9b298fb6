import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { attributesOf, NodeTxKit } from "../../../helpers/nodeTxKit.js";
import { hashLockOf } from "../../../../src/node/modules/htlc/keys.js";

type Json = Record<string, any>;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** HTLCs in blocks of an in-process dev node: locked, claimed with the secret, expired by the block hook, refunded. */
describe("htlc Msgs", function () {
  this.timeout(60_000);
  let kit: NodeTxKit;
  before(async () => {
    kit = await NodeTxKit.open(4);
  });
  after(() => kit.close());

  const secretOf = (word: string) => sha256(new TextEncoder().encode(word));
  const create = (from: number, to: number, hashLock: string, timeLock = 50, timestamp = "0") => ({
    typeUrl: "/extmod.htlc.MsgCreateHTLC",
    value: {
      sender: kit.addresses[from],
      to: kit.addresses[to],
      receiver_on_other_chain: "",
      amount: [{ denom: "uhub", amount: "5000" }],
      hash_lock: hashLock,
      time_lock: String(timeLock),
      timestamp,
    },
  });
  const htlc = async (hashLock: string) => (await kit.query("extmod.htlc.Query.HTLC", { hash_lock: hashLock })).body.htlc as Json;

  it("locks coins under a hash lock with a timestamp, and the recipient's claim with the secret releases them", async () => {
    const secret = secretOf("open sesame");
    const hashLock = hex(hashLockOf(secret, 1700000000n));
    const created = await kit.deliver(1, [create(1, 2, hashLock, 100, "1700000000")]);
    expect(created.code, created.log).to.equal(0);
    const stored = await htlc(hashLock);
    expect(stored).to.include({ sender: kit.addresses[1], to: kit.addresses[2], state: "HTLC_STATE_OPEN", expiration_height: String(created.height + 100) });
    expect((await kit.balance(kit.moduleAccount("htlc"))) >= 5000n, "the htlc module account holds the coins").to.equal(true);
    const wrong = await kit.deliver(3, [
      { typeUrl: "/extmod.htlc.MsgClaimHTLC", value: { sender: kit.addresses[3], hash_lock: hashLock, secret: hex(secretOf("wrong")) } },
    ]);
    expect([wrong.codespace, wrong.code]).to.deep.equal(["htlc", 4]);
    const before = await kit.balance(kit.addresses[2]!);
    // anyone may claim: the coins always go to `to`
    const claimed = await kit.deliver(3, [
      { typeUrl: "/extmod.htlc.MsgClaimHTLC", value: { sender: kit.addresses[3], hash_lock: hashLock, secret: hex(secret) } },
    ]);
    expect(claimed.code, claimed.log).to.equal(0);
    expect((await kit.balance(kit.addresses[2]!)) - before).to.equal(5000n);
    expect(await htlc(hashLock)).to.include({ state: "HTLC_STATE_COMPLETED", secret: hex(secret).toUpperCase() });
    expect(attributesOf(claimed.events, "claim_htlc")).to.deep.equal([{ sender: kit.addresses[3], hash_lock: hashLock, secret: hex(secret) }]);
    const reused = await kit.deliver(1, [create(1, 2, hashLock)]);
    expect([reused.codespace, reused.code, reused.log]).to.deep.equal([
      "htlc",
      5,
      `failed to execute message; message index: 0: ${hashLock.toUpperCase()}: htlc already exists`,
    ]);
  });

  it("expires at its height in the block hook (no coins move); only then the refund returns them to the creator", async () => {
    const hashLock = hex(hashLockOf(secretOf("too late"), 0n));
    const created = await kit.deliver(1, [create(1, 2, hashLock, 50)]);
    expect(created.code, created.log).to.equal(0);
    const early = await kit.deliver(1, [{ typeUrl: "/extmod.htlc.MsgRefundHTLC", value: { sender: kit.addresses[1], hash_lock: hashLock } }]);
    expect([early.codespace, early.code]).to.deep.equal(["htlc", 8]);
    let expiredAt = 0;
    for (let height = early.height + 1; height <= created.height + 50; height++) {
      const block = await kit.block();
      if (attributesOf(block.beginEvents, "htlc_expired").some((e) => e.hash_lock === hashLock.toUpperCase())) expiredAt = block.height;
    }
    expect(expiredAt).to.equal(created.height + 50);
    expect((await htlc(hashLock)).state).to.equal("HTLC_STATE_EXPIRED");
    const late = await kit.deliver(2, [
      { typeUrl: "/extmod.htlc.MsgClaimHTLC", value: { sender: kit.addresses[2], hash_lock: hashLock, secret: hex(secretOf("too late")) } },
    ]);
    expect([late.codespace, late.code]).to.deep.equal(["htlc", 7]);
    const before = await kit.balance(kit.addresses[1]!);
    const refunded = await kit.deliver(3, [{ typeUrl: "/extmod.htlc.MsgRefundHTLC", value: { sender: kit.addresses[3], hash_lock: hashLock } }]);
    expect(refunded.code, refunded.log).to.equal(0);
    expect((await kit.balance(kit.addresses[1]!)) - before).to.equal(5000n);
    expect((await htlc(hashLock)).state).to.equal("HTLC_STATE_REFUNDED");
  });

  it("refuses a bad hash lock or time lock with the real texts", async () => {
    const short = await kit.deliver(1, [create(1, 2, "abcd")]);
    expect([short.codespace, short.code, short.log]).to.deep.equal(["htlc", 2, "length of the hash lock must be 64: invalid hash lock"]);
    const time = await kit.deliver(1, [create(1, 2, hex(secretOf("x")), 49)]);
    expect(time.log).to.equal("the time lock must be between [50,25480]: invalid time lock");
  });
});
