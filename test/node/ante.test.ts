import { expect } from "chai";
import { TxRaw, TxBody } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { Any } from "cosmjs-types/google/protobuf/any";
import { moduleAddress } from "../../src/codec/addresses.js";
import type { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { MempoolError } from "../../src/node/chain/mempool.js";
import { openDevNode, TEST_MNEMONIC } from "../helpers/devNode.js";
import { makeAuthInfoBytes } from "@cosmjs/proto-signing";
import { aminoSend, aminoTx, directTx, pubkeyAny, registry, send, testSigner, type TestSigner } from "../helpers/txSigner.js";

/** The ante handler and message execution, against the real system's list of cases (anchors 2.4). */
describe("transactions: ante handler and execution", function () {
  this.timeout(60_000);
  let node: EmbeddedNode;
  let signers: TestSigner[];
  const feeCollector = moduleAddress("hub", "fee_collector");

  before(async () => {
    ({ node } = await openDevNode({ accounts: 9 }));
    signers = await Promise.all([...Array(9).keys()].map((i) => testSigner(TEST_MNEMONIC, i)));
  });
  after(() => node.close());

  async function balance(address: string, denom = "uhub", height = 0): Promise<bigint> {
    const Request = node.codec.type("core.bank.v1beta1.QueryAllBalancesRequest");
    const Response = node.codec.type("core.bank.v1beta1.QueryAllBalancesResponse");
    const answer = await node.query("/core.bank.v1beta1.Query/AllBalances", Request.encode({ address }).finish(), height);
    const coins = (Response.toObject(Response.decode(answer.value)) as { balances?: Array<{ denom: string; amount: string }> }).balances ?? [];
    return BigInt(coins.find((c) => c.denom === denom)?.amount ?? "0");
  }

  /** The signers' balances (the fee collector is swept into distribution at the start of every block, so it is checked per block). */
  async function balances(): Promise<bigint[]> {
    return Promise.all(signers.map((s) => balance(s.address)));
  }

  /** CheckTx, then (when it passes) a block; returns both outcomes. */
  async function submit(bytes: Uint8Array) {
    const checked = await node.checkTx(bytes);
    if (checked.outcome.code !== 0) return { check: checked.outcome, deliver: undefined, height: 0 };
    const block = await node.produceBlock();
    const result = block.results.txs_results![0]!;
    return { check: checked.outcome, deliver: result, height: Number(block.block.block.header.height) };
  }

  async function refused(bytes: Uint8Array, code: number, log: string | RegExp) {
    const before = await balances();
    const { check } = await submit(bytes);
    expect(check.code, check.log).to.equal(code);
    if (typeof log === "string") expect(check.log).to.equal(log);
    else expect(check.log).to.match(log);
    expect(await balances()).to.deep.equal(before);
  }

  let sequence0 = 0;

  it("accepts a valid send: the amount moves, the fee goes to the fee collector, the sequence increases", async () => {
    const [a, b] = signers;
    const before = [await balance(a!.address), await balance(b!.address)];
    const { check, deliver, height } = await submit(
      await directTx(a!, { messages: [send(a!.address, b!.address, "1000")], sequence: sequence0, accountNumber: 0 }),
    );
    expect(check.code).to.equal(0);
    expect(check.log).to.equal("[]");
    expect(deliver!.code ?? 0, deliver!.log).to.equal(0);
    sequence0++;
    expect(await balance(a!.address)).to.equal(before[0]! - 1000n - 2000n);
    expect(await balance(b!.address)).to.equal(before[1]! + 1000n);
    // the fee collector holds exactly the fees of its block (the previous block's were allocated at its start)
    expect(await balance(feeCollector, "uhub", height)).to.equal(2000n);
    expect(Buffer.from(deliver!.data!, "base64").toString("hex").toUpperCase()).to.equal("0A060A0473656E64");
    expect(Number(deliver!.gas_used)).to.be.greaterThan(0);
  });

  it("refuses the same bytes again (the mempool cache), and a replay with other bytes by its sequence", async () => {
    const [a, b] = signers;
    const bytes = await directTx(a!, { messages: [send(a!.address, b!.address, "1000")], sequence: 0, accountNumber: 0 });
    expect(() => node.checkTx(bytes)).to.throw(MempoolError, "tx already exists in cache");
    const replay = await directTx(a!, { messages: [send(a!.address, b!.address, "1000")], sequence: 0, accountNumber: 0, memo: "again" });
    await refused(replay, 32, `account sequence mismatch, expected ${sequence0}, got 0: incorrect account sequence`);
  });

  it("refuses a wrong sequence, then accepts the right one", async () => {
    const [a, b] = signers;
    await refused(
      await directTx(a!, { messages: [send(a!.address, b!.address, "5")], sequence: 7, accountNumber: 0 }),
      32,
      `account sequence mismatch, expected ${sequence0}, got 7: incorrect account sequence`,
    );
    const { deliver } = await submit(await directTx(a!, { messages: [send(a!.address, b!.address, "5")], sequence: sequence0, accountNumber: 0 }));
    expect(deliver!.code ?? 0).to.equal(0);
    sequence0++;
  });

  it("refuses a signature for another account number, another chain-id, or forged", async () => {
    const [a, b] = signers;
    const base = { messages: [send(a!.address, b!.address, "5")], sequence: sequence0, accountNumber: 0 };
    const unauthorized = "signature verification failed; please verify account number (0) and chain-id (devnet-1): unauthorized";
    await refused(await directTx(a!, { ...base, signAccountNumber: 3 }), 4, unauthorized);
    await refused(await directTx(a!, { ...base, signChainId: "other-chain" }), 4, unauthorized);
    const forged = TxRaw.decode(await directTx(a!, base));
    forged.signatures[0]![10]! ^= 0xff;
    await refused(TxRaw.encode(forged).finish(), 4, unauthorized);
  });

  it("refuses a public key that does not belong to the signer", async () => {
    const [a, b, c] = signers;
    await refused(
      await directTx(a!, { messages: [send(a!.address, b!.address, "5")], sequence: sequence0, accountNumber: 0, pubkey: c!.pubkey }),
      8,
      `pubKey does not match signer address ${a!.address} with signer index: 0: invalid pubkey`,
    );
  });

  it("charges the fee and the sequence but applies nothing else when a message fails", async () => {
    const [a, b] = signers;
    const before = [await balance(a!.address), await balance(b!.address)];
    const { check, deliver } = await submit(
      await directTx(a!, { messages: [send(a!.address, b!.address, "999999999999999")], sequence: sequence0, accountNumber: 0 }),
    );
    expect(check.code).to.equal(0); // CheckTx runs only the ante handler
    expect(deliver!.code).to.equal(5);
    expect(deliver!.log).to.match(/^failed to execute message; message index: 0: \d+uhub is smaller than 999999999999999uhub: insufficient funds$/);
    sequence0++;
    expect(await balance(a!.address)).to.equal(before[0]! - 2000n);
    expect(await balance(b!.address)).to.equal(before[1]!);
  });

  it("refuses a fee the payer cannot pay", async () => {
    const [, , , d, e] = signers;
    await refused(
      await directTx(d!, { messages: [send(d!.address, e!.address, "1")], sequence: 0, accountNumber: 3, fee: [{ denom: "ugold", amount: "5" }] }),
      5,
      "insufficient funds to pay for fees; 0ugold < 5ugold: insufficient funds",
    );
  });

  it("refuses a memo over the limit, gas over the block limit, and runs out of gas", async () => {
    const [a, b] = signers;
    const base = { messages: [send(a!.address, b!.address, "5")], sequence: sequence0, accountNumber: 0 };
    await refused(
      await directTx(a!, { ...base, memo: "m".repeat(257) }),
      12,
      "maximum number of characters is 256 but received 257 characters: memo too large",
    );
    await refused(await directTx(a!, { ...base, gas: 200_000_000 }), 11, "gas wanted 200000000 is greater than the block max gas 100000000: out of gas");
    await refused(await directTx(a!, { ...base, gas: 1000 }), 11, /^out of gas in location: \w+; gasWanted: 1000, gasUsed: \d+: out of gas$/);
  });

  it("refuses empty and garbage bytes, unknown fields and extension options", async () => {
    const [a, b] = signers;
    await refused(Uint8Array.of(), 2, "tx bytes are empty: tx parse error");
    await refused(Uint8Array.of(0xff, 0x01, 0x02), 2, /tx parse error$/);
    const valid = TxRaw.decode(await directTx(a!, { messages: [send(a!.address, b!.address, "5")], sequence: sequence0, accountNumber: 0 }));
    const withUnknown = TxRaw.encode({ ...valid, authInfoBytes: Uint8Array.from([...valid.authInfoBytes, 0x2a, 0x01, 0x00]) }).finish();
    await refused(withUnknown, 2, /^errUnknownField "core.tx.v1beta1.AuthInfo": \{TagNum: 5, WireType: 2\}: tx parse error$/);
    const body = TxBody.decode(valid.bodyBytes);
    const withExtension = TxBody.encode({
      ...body,
      extensionOptions: [Any.fromPartial({ typeUrl: "/core.bank.v1beta1.MsgSend", value: new Uint8Array() })],
    }).finish();
    await refused(TxRaw.encode({ ...valid, bodyBytes: withExtension }).finish(), 31, "unknown extension options");
  });

  it("refuses a transaction past its timeout height", async () => {
    const [a, b] = signers;
    await refused(
      await directTx(a!, { messages: [send(a!.address, b!.address, "5")], sequence: sequence0, accountNumber: 0, timeoutHeight: 1n }),
      30,
      /^block height: \d+, timeout height: 1: tx timeout height$/,
    );
  });

  it("refuses a transaction without signatures", async () => {
    const [a, b] = signers;
    const valid = TxRaw.decode(await directTx(a!, { messages: [send(a!.address, b!.address, "5")], sequence: sequence0, accountNumber: 0 }));
    await refused(TxRaw.encode({ ...valid, signatures: [] }).finish(), 15, "no signatures supplied");
  });

  it("accepts a transaction with several signers, and refuses more signatures than the limit", async () => {
    const inputs = (n: number) => signers.slice(0, n).map((s) => ({ address: s.address, coins: [{ denom: "uhub", amount: "1" }] }));
    const multiSend = (n: number) => ({
      typeUrl: "/core.bank.v1beta1.MsgMultiSend",
      value: { inputs: inputs(n), outputs: [{ address: signers[8]!.address, coins: [{ denom: "uhub", amount: String(n) }] }] },
    });
    const sequences = new Map<number, number>([[0, sequence0]]);
    const signed = async (n: number) => {
      const bodyBytes = registry.encode({ typeUrl: "/cosmos.tx.v1beta1.TxBody", value: { messages: [multiSend(n)], memo: "" } });
      const authInfoBytes = makeAuthInfoBytes(
        signers.slice(0, n).map((s, i) => ({ pubkey: pubkeyAny(s.pubkey), sequence: sequences.get(i) ?? 0 })),
        [{ denom: "uhub", amount: "3000" }],
        400_000,
        undefined,
        undefined,
      );
      const signatures = await Promise.all(signers.slice(0, n).map((s, i) => s.signDirect(bodyBytes, authInfoBytes, "devnet-1", i)));
      return TxRaw.encode({ bodyBytes, authInfoBytes, signatures }).finish();
    };
    const before = await balance(signers[8]!.address);
    const { deliver } = await submit(await signed(2));
    expect(deliver!.code ?? 0, deliver!.log).to.equal(0);
    sequence0++;
    expect(await balance(signers[8]!.address)).to.equal(before + 2n);
    sequences.set(0, sequence0);
    sequences.set(1, 1);
    await refused(await signed(8), 14, "signatures: 8, limit: 7: maximum number of signatures exceeded");
  });

  it("accepts a transaction signed in LEGACY_AMINO_JSON by @cosmjs/amino", async () => {
    const [, , c, d] = signers;
    const before = await balance(d!.address);
    const bytes = await aminoTx(c!, {
      messages: [send(c!.address, d!.address, "777")],
      aminoMsgs: [aminoSend(c!.address, d!.address, "777")],
      sequence: 0,
      accountNumber: 2,
      memo: "a < b & c > d",
    });
    const { check, deliver } = await submit(bytes);
    expect(check.code, check.log).to.equal(0);
    expect(deliver!.code ?? 0, deliver!.log).to.equal(0);
    expect(await balance(d!.address)).to.equal(before + 777n);
    // a replay: the signer info's sequence is checked for amino signers too (as SDK v0.44 does; v0.41 did not)
    const replay = await aminoTx(c!, {
      messages: [send(c!.address, d!.address, "777")],
      aminoMsgs: [aminoSend(c!.address, d!.address, "777")],
      sequence: 0,
      accountNumber: 2,
      memo: "replay",
    });
    await refused(replay, 32, "account sequence mismatch, expected 1, got 0: incorrect account sequence");
    // the signer info says 1, but the sign doc was signed with 0: the signature does not verify
    const wrong = await aminoTx(c!, {
      messages: [send(c!.address, d!.address, "777")],
      aminoMsgs: [aminoSend(c!.address, d!.address, "777")],
      sequence: 1,
      signSequence: 0,
      accountNumber: 2,
      memo: "replay",
    });
    await refused(wrong, 4, "signature verification failed; please verify account number (2), sequence (1) and chain-id (devnet-1): unauthorized");
  });

  it("refuses a fee below the node's minimum gas price", async () => {
    const { node: strict } = await openDevNode({ accounts: 4, minimumGasPrices: "0.025uhub" });
    try {
      const [a, b] = signers;
      const { outcome } = await strict.checkTx(
        await directTx(a!, { messages: [send(a!.address, b!.address, "5")], sequence: 0, accountNumber: 0, fee: [{ denom: "uhub", amount: "1" }] }),
      );
      expect(outcome.code).to.equal(13);
      expect(outcome.log).to.equal("insufficient fees; got: 1uhub required: 5000uhub: insufficient fee");
      const { outcome: enough } = await strict.checkTx(
        await directTx(a!, { messages: [send(a!.address, b!.address, "5")], sequence: 0, accountNumber: 0, fee: [{ denom: "uhub", amount: "5000" }] }),
      );
      expect(enough.code, enough.log).to.equal(0);
    } finally {
      await strict.close();
    }
  });
});
