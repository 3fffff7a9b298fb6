import { expect } from "chai";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { makeSignDoc as makeAminoSignDoc } from "@cosmjs/amino";
import { AuthInfo, TxBody, TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { Coin } from "cosmjs-types/cosmos/base/v1beta1/coin";
import { Any } from "cosmjs-types/google/protobuf/any";
import { readDevAccounts } from "../../src/commands/home.js";
import { http } from "../helpers/http.js";
import { useStartedDevChain } from "../helpers/startedDevChain.js";
import { aminoSend, send, signedTx, testSigner, type SignerSlot, type TestSigner, type TxContent } from "../helpers/txSigner.js";
import { concat, delimited, overlongVarint, tag, varint } from "../helpers/protoWire.js";
import { SeededChoices, base64, highS, multisigAminoTx, multisigOf, withAuthInfo, withBody, withRaw, type Multisig } from "./forgeryKit.js";

const MIN_GAS_PRICE = "0.01uhub"; // 2000uhub for the default 200000 gas

interface Answer {
  code: number;
  codespace: string;
  log: string;
  txhash: string;
}

interface Expected {
  codespace: string;
  code: number;
  /** The log, where it is stable (otherwise a pattern). */
  log?: string | RegExp;
}

/**
 * Forged and tampered transactions, signed with real secp256k1 keys by the
 * cosmjs wallets and sent over HTTP (POST /core/tx/v1beta1/txs, block mode)
 * to a started dev chain whose node asks a minimum gas price. Every one must
 * be refused with the real system's codespace and code (and log where it is
 * stable), and must leave balances and sequences as they were; the controls
 * beside them (the same transactions untampered) must be accepted, so that a
 * refusal is the tampering's doing. Choices (amounts, bytes flipped, unknown
 * field numbers, lengths) come from a seed printed with the summary:
 * FORGERY_SEED=<seed> repeats a run.
 */
describe("hardening: forged and tampered transactions", function () {
  this.timeout(120_000);
  const seed = process.env.FORGERY_SEED ?? randomBytes(6).toString("hex");
  const choose = new SeededChoices(seed);
  const chain = useStartedDevChain({
    accounts: 7,
    prepare: (home) => {
      const file = path.join(home, "config", "app.toml");
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('minimum-gas-prices = ""', `minimum-gas-prices = "${MIN_GAS_PRICE}"`));
    },
  });
  let s: TestSigner[];
  let multisig: Multisig;
  const tried: Array<{ name: string; answer: Answer }> = [];
  const controls: string[] = [];

  before(async () => {
    const dev = readDevAccounts(chain.home)!;
    s = await Promise.all(dev.accounts.map((_, i) => testSigner(dev.mnemonic, i)));
    expect(s.map((x) => x.address)).to.deep.equal(dev.accounts.map((a) => a.address));
    multisig = multisigOf([s[4]!, s[5]!, s[6]!], 2);
  });

  after(() => {
    const byCode = new Map<string, number>();
    for (const { answer } of tried.filter((t) => t.answer.code !== 0)) {
      const key = `${answer.codespace}/${answer.code}`;
      byCode.set(key, (byCode.get(key) ?? 0) + 1);
    }
    const accepted = tried.filter((t) => t.answer.code === 0).map((t) => t.name);
    console.log(`\n  forgery suite: seed ${seed} (repeat with FORGERY_SEED=${seed})`);
    console.log(`  ${tried.length} tampered transactions sent, ${accepted.length} accepted; ${controls.length} untampered controls accepted`);
    for (const [key, count] of [...byCode].sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }))) console.log(`    refused with ${key}: ${count}`);
    for (const name of accepted) console.log(`    ACCEPTED: ${name}`);
  });

  // --- the chain, over HTTP ---

  const post = (route: string, body: unknown) =>
    http(`${chain.node().restUrl}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  async function broadcast(bytes: Uint8Array): Promise<Answer> {
    const r = await post("/core/tx/v1beta1/txs", { tx_bytes: base64(bytes), mode: "BROADCAST_MODE_BLOCK" });
    expect(r.status, r.text).to.equal(200);
    const response = r.body.tx_response;
    return { code: response.code, codespace: response.codespace, log: response.raw_log, txhash: response.txhash };
  }

  /** Account number and sequence of an address (0, 0 for one the chain does not know). */
  async function numbers(address: string): Promise<{ accountNumber: number; sequence: number }> {
    const r = await chain.get(`/core/auth/v1beta1/accounts/${address}`);
    if (r.status === 404) return { accountNumber: 0, sequence: 0 };
    expect(r.status, r.text).to.equal(200);
    return { accountNumber: Number(r.body.account.account_number), sequence: Number(r.body.account.sequence) };
  }

  /** A signer slot of dev account i with its current numbers, and what a test changes. */
  async function slot(i: number, changes: Partial<SignerSlot> = {}): Promise<SignerSlot> {
    return { signer: s[i]!, ...(await numbers(s[i]!.address)), ...changes };
  }

  /** Every dev account's and the multisig's uhub balance and sequence: a refused forgery changes none. */
  async function snapshot(): Promise<string[]> {
    const addresses = [...s.map((x) => x.address), multisig.address];
    return Promise.all(
      addresses.map(async (address) => {
        const balance = await chain.get(`/core/bank/v1beta1/balances/${address}/uhub`);
        return `${address} ${balance.body.balance?.amount} ${(await numbers(address)).sequence}`;
      }),
    );
  }

  /** A tampered transaction: refused with the real code, and nothing changes. */
  function forgery(name: string, expectation: Expected | (() => Promise<Expected>), build: () => Promise<Uint8Array>): void {
    it(`refuses: ${name}`, async () => {
      const expected = typeof expectation === "function" ? await expectation() : expectation;
      const bytes = await build();
      const before = await snapshot();
      const answer = await broadcast(bytes);
      tried.push({ name, answer });
      expect({ codespace: answer.codespace, code: answer.code }, answer.log).to.deep.equal({ codespace: expected.codespace, code: expected.code });
      if (typeof expected.log === "string") expect(answer.log).to.equal(expected.log);
      else if (expected.log) expect(answer.log).to.match(expected.log);
      expect(await snapshot()).to.deep.equal(before);
    });
  }

  /** An untampered transaction beside the forgeries: accepted. */
  function control(name: string, build: () => Promise<Uint8Array>, check?: (answer: Answer, before: Map<string, bigint>) => Promise<void>): void {
    it(`accepts: ${name}`, async () => {
      const before = new Map(await Promise.all(s.map(async (x) => [x.address, await balance(x.address)] as const)));
      const answer = await broadcast(await build());
      expect(answer.code, answer.log).to.equal(0);
      controls.push(name);
      await check?.(answer, before);
    });
  }

  async function balance(address: string): Promise<bigint> {
    return BigInt((await chain.get(`/core/bank/v1beta1/balances/${address}/uhub`)).body.balance?.amount ?? 0);
  }

  // --- transactions ---

  const amount = () => String(choose.int(1, 1000));
  /** A send from dev account `from` to `to`, as protobuf and amino messages. */
  const sendOf = (from: number, to: number | string, value = amount()): Pick<TxContent, "messages" | "aminoMsgs"> => {
    const recipient = typeof to === "string" ? to : s[to]!.address;
    return { messages: [send(s[from]!.address, recipient, value)], aminoMsgs: [aminoSend(s[from]!.address, recipient, value)] };
  };
  /** A send from dev account `from` (by default to B) signed by one signer; the seeded choices are made before anything is awaited. */
  const oneSigner =
    (mode: "direct" | "amino") =>
    async (from: number, content: Partial<TxContent> = {}, changes: Partial<SignerSlot> = {}) => {
      const tx = { ...sendOf(from, 1), ...content };
      return signedTx(mode, [await slot(from, changes)], tx);
    };
  const direct = oneSigner("direct");
  const amino = oneSigner("amino");
  /** One message with two signers (a multi-send from A and B). */
  const multiSend = (a: number, b: number): Pick<TxContent, "messages" | "aminoMsgs"> => {
    const coins = [{ denom: "uhub", amount: "1" }];
    const value = {
      inputs: [s[a]!, s[b]!].map((x) => ({ address: x.address, coins })),
      outputs: [{ address: s[2]!.address, coins: [{ denom: "uhub", amount: "2" }] }],
    };
    return { messages: [{ typeUrl: "/core.bank.v1beta1.MsgMultiSend", value }], aminoMsgs: [{ type: "core-sdk/MsgMultiSend", value }] };
  };
  const twoSigners = { gas: 300_000, fee: [{ denom: "uhub", amount: "3000" }] };

  /** Unknown field numbers: non-critical ones have bit 11 set (1024..2046; 2047 is non_critical_extension_options). */
  const nonCriticalField = () => choose.int(1024, 2046);
  const criticalField = () => choose.int(4, 1022);
  /** An unknown field with a seeded wire type and payload. */
  const unknownField = (number: number) =>
    choose.int(0, 1) === 0 ? [...tag(number, 0), ...varint(choose.int(1, 1_000_000))] : delimited(number, choose.bytes(choose.int(1, 40)));
  const appendToBody = (bytes: Uint8Array, extra: number[]) => withRaw(bytes, (raw) => ({ bodyBytes: concat(raw.bodyBytes, extra) }));
  const extensionOption = () => Any.fromPartial({ typeUrl: "/core.bank.v1beta1.MsgSend", value: new Uint8Array() });
  const decodeError = (type: string) => new RegExp(`^errUnknownField "${type.replace(/\./g, "\\.")}": \\{TagNum: \\d+, WireType: \\d\\}: tx parse error$`);
  const nonDeterministic = (type: string) => new RegExp(`^non-deterministic encoding of ${type.replace(/\./g, "\\.")}: .+: tx parse error$`);
  const unauthorized = async (i: number, amino = false) => {
    const { accountNumber, sequence } = await numbers(s[i]!.address);
    return amino
      ? `signature verification failed; please verify account number (${accountNumber}), sequence (${sequence}) and chain-id (devnet-1): unauthorized`
      : `signature verification failed; please verify account number (${accountNumber}) and chain-id (devnet-1): unauthorized`;
  };
  /** The failed signature verification of dev account i, its log naming the account's numbers when the case runs. */
  const verificationFailed =
    (i = 0, amino = false) =>
    async (): Promise<Expected> => ({ codespace: "sdk", code: 4, log: await unauthorized(i, amino) });

  describe("replays and signer data", () => {
    let committed: Uint8Array;
    control("a send signed in SIGN_MODE_DIRECT", async () => (committed = await direct(0)));
    control("a send signed in SIGN_MODE_LEGACY_AMINO_JSON", () => amino(0));

    forgery("a replay of committed bytes", { codespace: "sdk", code: 19 }, async () => committed);
    forgery(
      "a replay of a committed tx re-encoded (TxRaw fields in another order)",
      { codespace: "sdk", code: 2, log: nonDeterministic("core.tx.v1beta1.TxRaw") },
      async () => reorderTxRaw(committed),
    );
    forgery("signed for another chain-id", verificationFailed(), () => direct(0, {}, { signChainId: `other-${choose.int(1, 99)}` }));
    forgery("signed for another account number", verificationFailed(), async () => direct(0, {}, { signAccountNumber: choose.int(100, 10_000) }));
    forgery(
      "a sequence ahead of the account's",
      { codespace: "sdk", code: 32, log: /^account sequence mismatch, expected \d+, got \d+: incorrect account sequence$/ },
      async () => {
        const { sequence } = await numbers(s[0]!.address);
        return direct(0, {}, { sequence: sequence + choose.int(1, 1000) });
      },
    );
    forgery(
      "a sequence already used",
      { codespace: "sdk", code: 32, log: /^account sequence mismatch, expected \d+, got \d+: incorrect account sequence$/ },
      async () => {
        const { sequence } = await numbers(s[0]!.address);
        return direct(0, {}, { sequence: choose.int(0, sequence - 1) });
      },
    );
    forgery("amino: the sign doc signed with another sequence", verificationFailed(0, true), async () => {
      const { sequence } = await numbers(s[0]!.address);
      return amino(0, {}, { signSequence: sequence + choose.int(1, 1000) });
    });
    forgery(
      "amino: a relayer changes the signer info's sequence (not in the sign doc; v0.41 did not check it)",
      { codespace: "sdk", code: 32, log: /^account sequence mismatch, expected \d+, got \d+: incorrect account sequence$/ },
      async () => {
        const { sequence } = await numbers(s[0]!.address);
        const bytes = await amino(0);
        return withAuthInfo(bytes, (info) => ({ signerInfos: info.signerInfos.map((si) => ({ ...si, sequence: BigInt(sequence + choose.int(1, 1000)) })) }));
      },
    );
  });

  describe("keys and signatures", () => {
    forgery("signed by another key, with the signer's public key", verificationFailed(), async () =>
      direct(2, sendOf(0, 1), { ...(await numbers(s[0]!.address)), pubkey: s[0]!.pubkey }),
    );
    forgery(
      "signed by another key, with that key's public key",
      { codespace: "sdk", code: 8, log: /^pubKey does not match signer address hub1\w+ with signer index: 0: invalid pubkey$/ },
      async () => direct(2, sendOf(0, 1), await numbers(s[0]!.address)),
    );
    forgery("a high-S signature (the same signature, s replaced by n - s)", verificationFailed(), async () =>
      withRaw(await direct(0), (raw) => ({ signatures: [highS(raw.signatures[0]!)] })),
    );
    forgery("a signature with a flipped byte", verificationFailed(), async () =>
      withRaw(await direct(0), (raw) => {
        const signature = Uint8Array.from(raw.signatures[0]!);
        signature[choose.int(0, 63)]! ^= choose.int(1, 255);
        return { signatures: [signature] };
      }),
    );
    forgery("a truncated signature", verificationFailed(), async () =>
      withRaw(await direct(0), (raw) => ({ signatures: [raw.signatures[0]!.subarray(0, choose.int(0, 63))] })),
    );
    forgery("no signatures", { codespace: "sdk", code: 15, log: "no signatures supplied" }, async () => withRaw(await direct(0), () => ({ signatures: [] })));
    forgery("the signature twice", { codespace: "sdk", code: 4, log: "wrong number of signers; expected 1, got 2: unauthorized" }, async () =>
      withRaw(await direct(0), (raw) => ({ signatures: [raw.signatures[0]!, raw.signatures[0]!] })),
    );
    forgery(
      "a two-signer message signed by one of them",
      { codespace: "sdk", code: 4, log: "wrong number of signers; expected 2, got 1: unauthorized" },
      async () => signedTx("direct", [await slot(0)], { ...multiSend(0, 1), ...twoSigners }),
    );
    forgery(
      "a two-signer message with the first signer's signature in both places",
      { codespace: "sdk", code: 8, log: /^pubKey does not match signer address hub1\w+ with signer index: 1: invalid pubkey$/ },
      async () => signedTx("direct", [await slot(0), await slot(0)], { ...multiSend(0, 1), ...twoSigners }),
    );
    forgery(
      "a two-signer message with the signers in the other order",
      { codespace: "sdk", code: 8, log: /^pubKey does not match signer address hub1\w+ with signer index: 0: invalid pubkey$/ },
      async () => signedTx("direct", [await slot(1), await slot(0)], { ...multiSend(0, 1), ...twoSigners }),
    );
    control("a two-signer message signed by both", async () => signedTx("direct", [await slot(0), await slot(1)], { ...multiSend(0, 1), ...twoSigners }));
  });

  describe("fee, memo and timeout", () => {
    forgery(
      "fees below the minimum gas price",
      { codespace: "sdk", code: 13, log: /^insufficient fees; got: \d+uhub required: 2000uhub: insufficient fee$/ },
      () => direct(0, { fee: [{ denom: "uhub", amount: String(choose.int(1, 1999)) }] }),
    );
    forgery("no fee at all", { codespace: "sdk", code: 13, log: "insufficient fees; got: 0 required: 2000uhub: insufficient fee" }, () =>
      direct(0, { fee: [] }),
    );
    forgery(
      "a memo over the limit",
      { codespace: "sdk", code: 12, log: /^maximum number of characters is 256 but received \d+ characters: memo too large$/ },
      () => direct(0, { memo: "m".repeat(choose.int(257, 600)) }),
    );
    forgery("a timeout height already passed", { codespace: "sdk", code: 30, log: /^block height: \d+, timeout height: \d+: tx timeout height$/ }, async () =>
      direct(0, { timeoutHeight: BigInt(choose.int(1, 2)) }),
    );
  });

  describe("fee payer (auth_info.fee.payer)", () => {
    control(
      "a send by A whose fee D pays, signed by both; D pays, A only sends",
      async () => signedTx("direct", [await slot(0), await slot(3)], { ...sendOf(0, 1, "10"), payer: s[3]!.address }),
      async (_answer, before) => {
        expect(await balance(s[0]!.address)).to.equal(before.get(s[0]!.address)! - 10n);
        expect(await balance(s[3]!.address)).to.equal(before.get(s[3]!.address)! - 2000n);
      },
    );
    control(
      "amino: the same, the payer in the signed fee (as cosmjs and SDK v0.46 sign it)",
      async () => signedTx("amino", [await slot(0), await slot(3)], { ...sendOf(0, 1, "10"), payer: s[3]!.address }),
      async (_answer, before) => {
        expect(await balance(s[3]!.address)).to.equal(before.get(s[3]!.address)! - 2000n);
      },
    );
    forgery("a payer who did not sign", { codespace: "sdk", code: 4, log: "wrong number of signers; expected 2, got 1: unauthorized" }, async () =>
      direct(0, { payer: s[3]!.address }),
    );
    forgery(
      "the payer's place signed by the sender's key",
      { codespace: "sdk", code: 8, log: /^pubKey does not match signer address hub1\w+ with signer index: 1: invalid pubkey$/ },
      async () => signedTx("direct", [await slot(0), await slot(0)], { ...sendOf(0, 1), payer: s[3]!.address }),
    );
    forgery(
      "the payer's place with the payer's key but the sender's signature",
      { codespace: "sdk", code: 4, log: /^signature verification failed; please verify account number \(\d+\) and chain-id \(devnet-1\): unauthorized$/ },
      async () => {
        const tx = await signedTx("direct", [await slot(0), await slot(3)], { ...sendOf(0, 1), payer: s[3]!.address });
        return withRaw(tx, (raw) => ({ signatures: [raw.signatures[0]!, raw.signatures[0]!] }));
      },
    );
    forgery("a payer address that is not bech32", { codespace: "sdk", code: 7, log: /^Invalid fee payer address \(.+\): invalid address$/ }, () =>
      direct(0, { payer: `hub1${base64(choose.bytes(8)).replace(/[^a-z]/g, "x")}` }),
    );
    forgery(
      "a payer address of another chain's prefix",
      { codespace: "sdk", code: 7, log: /^Invalid fee payer address \(.*invalid Bech32 prefix; expected hub, got cosmos\): invalid address$/ },
      () => direct(0, { payer: "cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu" }),
    );
    forgery(
      "a payer the chain does not know (signed by that key)",
      { codespace: "sdk", code: 9, log: /^account hub1\w+ does not exist: unknown address$/ },
      async () => {
        const stranger = await testSigner(readDevAccounts(chain.home)!.mnemonic, choose.int(50, 500));
        return signedTx("direct", [await slot(0), { signer: stranger, accountNumber: 0, sequence: 0 }], { ...sendOf(0, 1), payer: stranger.address });
      },
    );
    forgery("a relayer adds a payer to a signed direct tx (the sender itself)", verificationFailed(), async () =>
      withAuthInfo(await direct(0), (info) => ({ fee: { ...info.fee!, payer: s[0]!.address } })),
    );
    forgery("amino: a relayer names the second signer as payer (v0.41's sign doc did not cover the payer)", verificationFailed(0, true), async () => {
      const tx = await signedTx("amino", [await slot(0), await slot(1)], { ...multiSend(0, 1), ...twoSigners });
      return withAuthInfo(tx, (info) => ({ fee: { ...info.fee!, payer: s[1]!.address } }));
    });
    forgery("amino: a relayer names the sender as payer", verificationFailed(0, true), async () =>
      withAuthInfo(await amino(0), (info) => ({ fee: { ...info.fee!, payer: s[0]!.address } })),
    );
    forgery("amino: a relayer adds a fee granter", verificationFailed(0, true), async () =>
      withAuthInfo(await amino(0), (info) => ({ fee: { ...info.fee!, granter: s[3]!.address } })),
    );
  });

  describe("unknown fields and extension options, per sign mode", () => {
    control("direct: the signer itself adds a non-critical unknown field (the real rule: allowed, its bytes are signed)", () =>
      direct(0, { bodyExtension: Uint8Array.from(unknownField(nonCriticalField())) }),
    );
    control("direct: the signer itself adds a non-critical extension option (allowed)", () =>
      direct(0, { bodyExtension: Uint8Array.from(delimited(2047, Any.encode(extensionOption()).finish())) }),
    );
    forgery("direct: a relayer appends a non-critical unknown field", verificationFailed(), async () =>
      appendToBody(await direct(0), unknownField(nonCriticalField())),
    );
    forgery("direct: a relayer adds a non-critical extension option", verificationFailed(), async () =>
      withBody(await direct(0), () => ({ nonCriticalExtensionOptions: [extensionOption()] })),
    );
    forgery("direct: a relayer adds an extension option", { codespace: "sdk", code: 31, log: "unknown extension options" }, async () =>
      withBody(await direct(0), () => ({ extensionOptions: [extensionOption()] })),
    );
    forgery("direct: a critical unknown field in the body", { codespace: "sdk", code: 2, log: decodeError("core.tx.v1beta1.TxBody") }, async () =>
      appendToBody(await direct(0), unknownField(criticalField())),
    );
    forgery("direct: a critical unknown field in the message", { codespace: "sdk", code: 2, log: decodeError("core.bank.v1beta1.MsgSend") }, async () =>
      withBody(await direct(0), (body) => ({ messages: body.messages.map((m) => ({ ...m, value: concat(m.value, unknownField(criticalField())) })) })),
    );
    forgery("direct: an unknown field in the auth info", { codespace: "sdk", code: 2, log: decodeError("core.tx.v1beta1.AuthInfo") }, async () =>
      withRaw(await direct(0), (raw) => ({ authInfoBytes: concat(raw.authInfoBytes, unknownField(choose.int(3, 2046))) })),
    );
    forgery("direct: an unknown field in the TxRaw", { codespace: "sdk", code: 2, log: decodeError("core.tx.v1beta1.TxRaw") }, async () =>
      concat(await direct(0), unknownField(choose.int(4, 2046))),
    );

    forgery("amino: a relayer appends a non-critical unknown field (the sign doc does not cover it)", verificationFailed(0, true), async () =>
      appendToBody(await amino(0), unknownField(nonCriticalField())),
    );
    forgery("amino: a relayer appends a non-critical unknown field inside the message", verificationFailed(0, true), async () =>
      withBody(await amino(0), (body) => ({ messages: body.messages.map((m) => ({ ...m, value: concat(m.value, unknownField(nonCriticalField())) })) })),
    );
    forgery("amino: a relayer adds a non-critical extension option", verificationFailed(0, true), async () =>
      withBody(await amino(0), () => ({ nonCriticalExtensionOptions: [extensionOption()] })),
    );
    forgery("amino: a relayer adds an extension option", { codespace: "sdk", code: 31, log: "unknown extension options" }, async () =>
      withBody(await amino(0), () => ({ extensionOptions: [extensionOption()] })),
    );
    forgery("amino: a critical unknown field in the body", { codespace: "sdk", code: 2, log: decodeError("core.tx.v1beta1.TxBody") }, async () =>
      appendToBody(await amino(0), unknownField(criticalField())),
    );
    forgery(
      "amino: the signer itself adds a non-critical unknown field (the real rule: the amino handler refuses them, and the ante handler reports a failed verification)",
      verificationFailed(0, true),
      () => amino(0, { bodyExtension: Uint8Array.from(unknownField(nonCriticalField())) }),
    );
  });

  describe("amino-signed bytes re-encoded by a relayer (one content, one encoding, one hash)", () => {
    forgery(
      "the public key left out of the signer info (the account already holds it)",
      { codespace: "sdk", code: 8, log: /^signer hub1\w+ signs in SIGN_MODE_LEGACY_AMINO_JSON, so its signer info must carry its public key: invalid pubkey$/ },
      async () => withAuthInfo(await amino(0), (info) => ({ signerInfos: info.signerInfos.map((si) => ({ ...si, publicKey: undefined })) })),
    );
    forgery("timeout_height 0 written out", { codespace: "sdk", code: 2, log: nonDeterministic("core.tx.v1beta1.TxBody") }, async () =>
      appendToBody(await amino(0), [...tag(3, 0), 0]),
    );
    forgery("the memo written twice (the last one counts)", { codespace: "sdk", code: 2, log: nonDeterministic("core.tx.v1beta1.TxBody") }, async () => {
      const memo = `m${choose.int(0, 9999)}`;
      const tx = await amino(0, { memo });
      return withRaw(tx, (raw) => {
        const body = TxBody.decode(raw.bodyBytes);
        const messages = body.messages.flatMap((m) => delimited(1, Any.encode(m).finish()));
        return { bodyBytes: concat(messages, delimited(2, Buffer.from("decoy")), delimited(2, Buffer.from(memo))) };
      });
    });
    forgery("the body's fields in another order", { codespace: "sdk", code: 2, log: nonDeterministic("core.tx.v1beta1.TxBody") }, async () => {
      const tx = await amino(0, { memo: "ordered" });
      return withRaw(tx, (raw) => {
        const body = TxBody.decode(raw.bodyBytes);
        return { bodyBytes: concat(delimited(2, Buffer.from(body.memo)), ...body.messages.map((m) => delimited(1, Any.encode(m).finish()))) };
      });
    });
    forgery("a coin's fields in another order inside the message", { codespace: "sdk", code: 2, log: nonDeterministic("core.base.v1beta1.Coin") }, async () => {
      const value = amount();
      const tx = await amino(0, sendOf(0, 1, value));
      return withBody(tx, (body) => ({
        messages: body.messages.map((m) => ({
          ...m,
          value: concat(
            delimited(1, Buffer.from(s[0]!.address)),
            delimited(2, Buffer.from(s[1]!.address)),
            delimited(3, concat(delimited(2, Buffer.from(value)), delimited(1, Buffer.from("uhub")))),
          ),
        })),
      }));
    });
    forgery(
      "the gas limit as an overlong varint",
      { codespace: "sdk", code: 2, log: /^non-deterministic encoding of core\.tx\.v1beta1\.Fee: varint longer than needed: tx parse error$/ },
      async () =>
        withRaw(await amino(0), (raw) => {
          const info = AuthInfo.decode(raw.authInfoBytes);
          const signerInfos = AuthInfo.encode({ ...info, fee: undefined }).finish();
          const fee = concat(...info.fee!.amount.map((c) => delimited(1, Coin.encode(c).finish())), tag(2, 0), overlongVarint(Number(info.fee!.gasLimit)));
          return { authInfoBytes: concat(signerInfos, delimited(2, fee)) };
        }),
    );
    forgery(
      "the message's type URL in another form (type.googleapis.com/…)",
      { codespace: "sdk", code: 2, log: /^unable to resolve type URL type\.googleapis\.com\/core\.bank\.v1beta1\.MsgSend.*: tx parse error$/ },
      async () => withBody(await amino(0), (body) => ({ messages: body.messages.map((m) => ({ ...m, typeUrl: `type.googleapis.com${m.typeUrl}` })) })),
    );
    forgery("the TxRaw's body length as an overlong varint", { codespace: "sdk", code: 2, log: nonDeterministic("core.tx.v1beta1.TxRaw") }, async () =>
      overlongBodyLength(await amino(0)),
    );
  });

  describe("a legacy amino multisig account (2 of 3)", () => {
    const signedByMultisig = async (options: { signing: number[]; signatures?: (signed: Uint8Array[]) => Uint8Array[] }) => {
      const { accountNumber, sequence } = await numbers(multisig.address);
      return multisigAminoTx(multisig, {
        ...sendOf(0, 1, "5"),
        messages: [send(multisig.address, s[1]!.address, "5")],
        aminoMsgs: [aminoSend(multisig.address, s[1]!.address, "5")],
        accountNumber,
        sequence,
        ...options,
      });
    };
    control("funding the multisig account", () => direct(0, sendOf(0, multisig.address, "1000000")));
    control("a send signed by two of its three members", () => signedByMultisig({ signing: [0, 1] }));
    forgery(
      "signed by one member only",
      {
        codespace: "sdk",
        code: 4,
        log: /^signature verification failed; please verify account number \(\d+\), sequence \(\d+\) and chain-id \(devnet-1\): unauthorized$/,
      },
      () => signedByMultisig({ signing: [choose.int(0, 2)] }),
    );
    forgery(
      "one member's signature given twice",
      {
        codespace: "sdk",
        code: 4,
        log: /^signature verification failed; please verify account number \(\d+\), sequence \(\d+\) and chain-id \(devnet-1\): unauthorized$/,
      },
      () => signedByMultisig({ signing: [0, 2], signatures: (signed) => [signed[0]!, signed[0]!] }),
    );
    forgery(
      "a member's place signed by a non-member",
      {
        codespace: "sdk",
        code: 4,
        log: /^signature verification failed; please verify account number \(\d+\), sequence \(\d+\) and chain-id \(devnet-1\): unauthorized$/,
      },
      async () => {
        const { accountNumber, sequence } = await numbers(multisig.address);
        const doc = makeAminoSignDoc(
          [aminoSend(multisig.address, s[1]!.address, "5")],
          { amount: [{ denom: "uhub", amount: "4000" }], gas: "400000" },
          "devnet-1",
          "",
          accountNumber,
          sequence,
        );
        const outsider = await s[2]!.signAmino(doc);
        return signedByMultisig({ signing: [0, 1], signatures: (signed) => [signed[0]!, outsider] });
      },
    );
    forgery(
      "an unknown field appended to the MultiSignature",
      { codespace: "undefined", code: 1, log: "rejecting unrecognized fields found in MultiSignature: internal" },
      async () =>
        withRaw(await signedByMultisig({ signing: [1, 2] }), (raw) => ({ signatures: [concat(raw.signatures[0]!, unknownField(choose.int(2, 2046)))] })),
    );
    forgery(
      "the MultiSignature re-encoded (overlong length)",
      { codespace: "sdk", code: 2, log: nonDeterministic("core.crypto.multisig.v1beta1.MultiSignature") },
      async () => withRaw(await signedByMultisig({ signing: [0, 1] }), (raw) => ({ signatures: [overlongFirstLength(raw.signatures[0]!)] })),
    );
    forgery(
      "a relayer changes the signer info's sequence",
      { codespace: "sdk", code: 32, log: /^account sequence mismatch, expected \d+, got \d+: incorrect account sequence$/ },
      async () =>
        withAuthInfo(await signedByMultisig({ signing: [0, 1] }), (info) => ({
          signerInfos: info.signerInfos.map((si) => ({ ...si, sequence: si.sequence + BigInt(choose.int(1, 1000)) })),
        })),
    );
    forgery(
      "a relayer leaves out the multisig public key",
      { codespace: "sdk", code: 8, log: /^signer hub1\w+ signs in SIGN_MODE_LEGACY_AMINO_JSON, so its signer info must carry its public key: invalid pubkey$/ },
      async () =>
        withAuthInfo(await signedByMultisig({ signing: [0, 1] }), (info) => ({ signerInfos: info.signerInfos.map((si) => ({ ...si, publicKey: undefined })) })),
    );
  });

  describe("the same transaction twice at once", () => {
    it("refuses the second of the same bytes sent twice at once (tx already in the mempool cache)", async () => {
      const bytes = await direct(0);
      const answers = await Promise.all([broadcast(bytes), broadcast(bytes)]);
      const codes = answers.map((a) => `${a.codespace}/${a.code}`).sort();
      expect(codes).to.deep.equal(["/0", "sdk/19"]);
      tried.push({ name: "the same bytes twice at once", answer: answers.find((a) => a.code !== 0)! });
      controls.push("the first of the same bytes twice");
    });
    it("refuses the second of two transactions with the same sequence sent at once", async () => {
      const { sequence } = await numbers(s[0]!.address);
      const [one, two] = await Promise.all([direct(0, { memo: "one" }, { sequence }), direct(0, { memo: "two" }, { sequence })]);
      const answers = await Promise.all([broadcast(one), broadcast(two)]);
      expect(answers.map((a) => `${a.codespace}/${a.code}`).sort()).to.deep.equal(["/0", "sdk/32"]);
      tried.push({ name: "two txs with one sequence at once", answer: answers.find((a) => a.code !== 0)! });
      controls.push("the first of two txs with one sequence");
    });
  });

  describe("legacy POST /txs: one signed StdTx, one hash", () => {
    it("the bytes POST /txs/encode builds for a StdTx are those cosmjs builds for the same signed doc, and POST /txs commits them under their SHA-256", async () => {
      const { accountNumber, sequence } = await numbers(s[0]!.address);
      const value = amount();
      const msgs = [aminoSend(s[0]!.address, s[1]!.address, value)];
      const fee = { amount: [{ denom: "uhub", amount: "2000" }], gas: "200000" };
      const doc = makeAminoSignDoc(msgs, fee, "devnet-1", "legacy", accountNumber, sequence);
      const signature = await s[0]!.signAmino(doc);
      const stdTx = {
        msg: msgs,
        fee,
        signatures: [{ pub_key: { type: "tendermint/PubKeySecp256k1", value: base64(s[0]!.pubkey) }, signature: base64(signature) }],
        memo: "legacy",
      };
      const cosmjsBytes = await signedTx("amino", [await slot(0)], { ...sendOf(0, 1, value), memo: "legacy" });
      const encoded = await post("/txs/encode", { type: "core-sdk/StdTx", value: stdTx });
      expect(encoded.status, encoded.text).to.equal(200);
      expect(encoded.body.tx).to.equal(base64(cosmjsBytes));
      const r = await post("/txs", { tx: stdTx, mode: "block" });
      expect(r.status, r.text).to.equal(200);
      expect(r.body.code ?? 0, r.body.raw_log).to.equal(0);
      expect(r.body.txhash).to.equal(Buffer.from(sha256(cosmjsBytes)).toString("hex").toUpperCase());
      controls.push("POST /txs of a StdTx signed with @cosmjs/amino");
    });
  });

  describe("in all (after every case above)", () => {
    it("accepted no tampered transaction", () => {
      expect(tried.length).to.be.greaterThan(50);
      expect(tried.filter((t) => t.answer.code === 0).map((t) => t.name)).to.deep.equal([]);
    });
  });
});

/** The TxRaw's fields written in reverse order (signatures, auth info, body): the same content, other bytes. */
function reorderTxRaw(bytes: Uint8Array): Uint8Array {
  const raw = TxRaw.decode(bytes);
  return concat(...raw.signatures.map((sig) => delimited(3, sig)), delimited(2, raw.authInfoBytes), delimited(1, raw.bodyBytes));
}

/** The TxRaw with its body's length prefix one byte longer than needed. */
function overlongBodyLength(bytes: Uint8Array): Uint8Array {
  const raw = TxRaw.decode(bytes);
  return concat(
    tag(1, 2),
    overlongVarint(raw.bodyBytes.length),
    raw.bodyBytes,
    delimited(2, raw.authInfoBytes),
    ...raw.signatures.map((sig) => delimited(3, sig)),
  );
}

/** A MultiSignature whose first signature's length prefix (one byte, 64) is one byte longer than needed. */
function overlongFirstLength(multiSignature: Uint8Array): Uint8Array {
  const length = multiSignature[1]!;
  return concat([multiSignature[0]!], overlongVarint(length), multiSignature.subarray(2));
}
