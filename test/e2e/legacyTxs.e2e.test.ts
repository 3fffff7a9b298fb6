import { expect } from "chai";
import path from "node:path";
import type { AminoMsg, StdFee, StdSignature } from "@cosmjs/amino";
import { aminoWallet, type AminoWallet as Wallet } from "../helpers/aminoWallet.js";
import { Codec } from "../../src/codec/codec.js";
import { AminoBinaryCodec } from "../../src/codec/amino/aminoBinary.js";
import { aminoStdTxFromTx, txFromTxRaw } from "../../src/codec/amino/stdTx.js";
import { aminoTransforms } from "../../src/tables/aminoTransforms.js";
import { http } from "../helpers/http.js";
import { startNode, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";
import { pollUntil } from "../helpers/poll.js";

const CHAIN_ID = "devnet-1";
const DEPRECATION = { deprecation: "true", link: '<https://docs.cosmos.network/master/migrations/rest.html>; rel="deprecation"' };

const FEE: StdFee = { amount: [{ denom: "uhub", amount: "2000" }], gas: "200000" };

/** A StdTx as the project writes it back: its own key type names (cosmjs writes tendermint/...), timeout_height given. */
function asProjectWrites(tx: Record<string, unknown>): Record<string, unknown> {
  const signatures = (tx.signatures as StdSignature[]).map((s) => ({ ...s, pub_key: { ...s.pub_key, type: "consensus/PubKeySecp256k1" } }));
  return { ...tx, signatures, timeout_height: "0" };
}

/**
 * The legacy transaction routes against `chain-rest start`: StdTxs signed
 * with @cosmjs/amino broadcast through POST /txs in each mode, replays refused,
 * /txs/encode bytes accepted by the gateway's broadcast, /txs/decode round
 * trips, the transaction query routes, and the generate-only flow.
 */
describe("e2e: legacy transaction routes", function () {
  this.timeout(120_000);
  const home = path.join(tempDir(), "home");
  const codec = new Codec();
  let node: StartedNode;
  let wallets: Wallet[];
  const sequences = new Map<number, number>();
  const get = (route: string) => http(`${node.restUrl}${route}`);
  const post = (route: string, body: unknown) =>
    http(`${node.restUrl}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const balance = async (address: string) => BigInt((await get(`/bank/balances/${address}?denom=uhub`)).body.result.amount);
  const nextSequence = (w: Wallet) => {
    const s = sequences.get(w.accountNumber) ?? 0;
    sequences.set(w.accountNumber, s + 1);
    return s;
  };
  async function stdTx(from: Wallet, to: string, amount: string, memo = ""): Promise<Record<string, unknown>> {
    const msgs: AminoMsg[] = [{ type: "core-sdk/MsgSend", value: { from_address: from.address, to_address: to, amount: [{ denom: "uhub", amount }] } }];
    const signature = await from.sign(msgs, FEE, memo, nextSequence(from));
    return { msg: msgs, fee: FEE, signatures: [signature], memo };
  }
  const waitForTx = (hash: string) =>
    pollUntil(
      () => get(`/txs/${hash}`),
      (r) => r.status === 200,
    );

  before(async () => {
    initDevHome(home, { accounts: 6, mnemonic: TEST_MNEMONIC });
    wallets = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => aminoWallet(i)));
    node = await startNode(home);
  });
  after(async () => node?.proc.stop());

  const hashes: string[] = [];

  describe("POST /txs (a StdTx signed with @cosmjs/amino signAmino)", () => {
    let blockTx: Record<string, unknown>;

    it("mode block: answers the committed TxResponse, and the balances change", async () => {
      const [from, to] = [wallets[0]!, wallets[1]!];
      const before = await balance(to.address);
      const paid = await balance(from.address);
      blockTx = await stdTx(from, to.address, "1000", "legacy block");
      const r = await post("/txs", { tx: blockTx, mode: "block" });
      expect(r.status, r.text).to.equal(200);
      expect(r.headers.get("deprecation")).to.equal(DEPRECATION.deprecation);
      expect(r.body).to.not.have.property("code");
      expect(r.body).to.include.keys("height", "txhash", "raw_log", "logs", "gas_wanted", "gas_used");
      expect(r.body).to.not.have.any.keys("result", "tags", "coin_flow", "tx", "timestamp");
      expect(Number(r.body.height)).to.be.greaterThan(1);
      expect(r.body.logs[0].events.map((e: { type: string }) => e.type)).to.deep.equal(["message", "transfer"]);
      expect(await balance(to.address)).to.equal(before + 1000n);
      expect(await balance(from.address)).to.equal(paid - 1000n - 2000n);
      hashes.push(r.body.txhash);
    });

    it("the same StdTx sent again is refused, and nothing moves", async () => {
      const to = wallets[1]!;
      const before = await balance(to.address);
      const r = await post("/txs", { tx: blockTx, mode: "block" });
      expect(r.status, r.text).to.equal(200);
      expect(r.body.code).to.equal(4);
      expect(r.body.codespace).to.equal("sdk");
      expect(r.body.raw_log).to.match(
        /^signature verification failed; please verify account number \(0\), sequence \(1\) and chain-id \(devnet-1\): unauthorized$/,
      );
      expect(await balance(to.address)).to.equal(before);
    });

    it("mode sync: answers after CheckTx; the tx is committed right after", async () => {
      const [from, to] = [wallets[0]!, wallets[2]!];
      const before = await balance(to.address);
      const r = await post("/txs", { tx: await stdTx(from, to.address, "77"), mode: "sync" });
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.include({ raw_log: "[]" });
      expect(r.body).to.not.have.any.keys("height", "code", "gas_used");
      await waitForTx(r.body.txhash);
      expect(await balance(to.address)).to.equal(before + 77n);
      hashes.push(r.body.txhash);
    });

    it("mode async: answers the hash only; the tx is committed right after", async () => {
      const [from, to] = [wallets[0]!, wallets[3]!];
      const before = await balance(to.address);
      const r = await post("/txs", { tx: await stdTx(from, to.address, "5"), mode: "async" });
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.deep.equal({ txhash: r.body.txhash, logs: null });
      await waitForTx(r.body.txhash);
      expect(await balance(to.address)).to.equal(before + 5n);
      hashes.push(r.body.txhash);
    });

    it("refuses an unknown mode, a malformed StdTx and a Msg without an amino name", async () => {
      const tx = await stdTx(wallets[4]!, wallets[5]!.address, "1");
      sequences.set(4, 0);
      const mode = await post("/txs", { tx, mode: "commit" });
      expect(mode.status).to.equal(400);
      expect(mode.body).to.deep.equal({ error: "unsupported return type commit; supported types: block, sync, async" });
      const unquoted = await post("/txs", { tx: { ...tx, fee: { amount: [], gas: 200000 } }, mode: "block" });
      expect(unquoted.status).to.equal(400);
      expect(unquoted.body.error).to.equal(
        "failed to decode JSON payload: tx.fee.gas: Amino:JSON int/int64/uint/uint64 expects quoted values for javascript numeric support",
      );
      const ibc = await post("/txs", { tx: { ...tx, msg: [{ type: "core-sdk/MsgUpdateClient", value: {} }] }, mode: "block" });
      expect(ibc.status).to.equal(400);
      expect(ibc.body.error).to.match(/^this transaction cannot be broadcasted via legacy REST endpoints, because it does not support Amino serialization\./);
      expect(ibc.headers.get("link")).to.equal(DEPRECATION.link);
    });
  });

  describe("POST /txs/encode and POST /txs/decode", () => {
    let stdTxJson: Record<string, unknown>;
    let encoded: string;

    it("/txs/encode answers the protobuf TxRaw, with the signer's sequence, that POST /core/tx/v1beta1/txs accepts", async () => {
      const [from, to] = [wallets[0]!, wallets[4]!];
      const before = await balance(to.address);
      const sequence = sequences.get(0)!;
      stdTxJson = await stdTx(from, to.address, "31", "encoded");
      const r = await post("/txs/encode", { type: "core-sdk/StdTx", value: stdTxJson });
      expect(r.status, r.text).to.equal(200);
      expect(Object.keys(r.body)).to.deep.equal(["tx"]);
      encoded = r.body.tx;
      const tx = txFromTxRaw(codec.root, Buffer.from(encoded, "base64")) as {
        auth_info: { signer_infos: Array<{ sequence: { toString(): string }; mode_info: unknown }> };
      };
      expect(tx.auth_info.signer_infos[0]!.sequence.toString()).to.equal(String(sequence));
      expect(codec.type("core.tx.v1beta1.ModeInfo").toObject(tx.auth_info.signer_infos[0]!.mode_info as never, { enums: String })).to.deep.equal({
        single: { mode: "SIGN_MODE_LEGACY_AMINO_JSON" },
      });
      const broadcast = await post("/core/tx/v1beta1/txs", { tx_bytes: encoded, mode: "BROADCAST_MODE_BLOCK" });
      expect(broadcast.body.tx_response.code, broadcast.body.tx_response.raw_log).to.equal(0);
      expect(await balance(to.address)).to.equal(before + 31n);
      hashes.push(broadcast.body.tx_response.txhash);
    });

    it("/txs/decode turns the protobuf bytes back into the same StdTx, in the height envelope", async () => {
      const r = await post("/txs/decode", { tx: encoded });
      expect(r.status, r.text).to.equal(200);
      expect(r.body.height).to.equal("0");
      expect(r.body.result).to.deep.equal(asProjectWrites(stdTxJson));
    });

    it("/txs/decode reads an amino-binary StdTx too", async () => {
      const binary = aminoStdTxFromTx(new AminoBinaryCodec(codec.root, aminoTransforms()), codec.root, txFromTxRaw(codec.root, Buffer.from(encoded, "base64")));
      const r = await post("/txs/decode", { tx: Buffer.from(binary).toString("base64") });
      expect(r.status, r.text).to.equal(200);
      expect(r.body.result).to.deep.equal(asProjectWrites(stdTxJson));
    });

    it("/txs/encode refuses a StdTx with a Msg that has no amino name; /txs/decode refuses bytes that are no transaction", async () => {
      const ibc = await post("/txs/encode", { type: "core-sdk/StdTx", value: { ...stdTxJson, msg: [{ type: "core-sdk/MsgRecvPacket", value: {} }] } });
      expect(ibc.status).to.equal(400);
      expect(ibc.body.error).to.equal(
        'this endpoint does not support txs that are not serializable via Amino, such as txs that contain IBC `Msg`s. For more info, please refer to our REST migration guide at https://docs.cosmos.network/master/migrations/rest.html (msg[0].type: unknown amino type "core-sdk/MsgRecvPacket")',
      );
      const garbage = await post("/txs/decode", { tx: "AAEC" });
      expect(garbage.status).to.equal(400);
      expect(garbage.body.error).to.match(/^the bytes are neither a protobuf TxRaw nor an amino StdTx/);
      expect((await post("/txs/decode", { tx: "not base64!" })).status).to.equal(400);
    });
  });

  describe("a body that is not a signed StdTx: 400 naming the field, nothing encoded or broadcast", () => {
    it("/txs/encode encodes only a StdTx: not an empty one, not another wrapped type, not one with other keys", async () => {
      const msg = [
        { type: "core-sdk/MsgSend", value: { from_address: wallets[0]!.address, to_address: wallets[1]!.address, amount: [{ denom: "uhub", amount: "1" }] } },
      ];
      const refused: Array<[unknown, string]> = [
        [{}, "msg: required: a StdTx carries at least one Msg"],
        [{ type: "core-sdk/StdTx", value: {} }, "msg: required: a StdTx carries at least one Msg"],
        [{ tx: { msg } }, "tx: unknown field: a StdTx has msg, fee, signatures, memo, timeout_height"],
        [{ msg: [], fee: FEE, signatures: null, memo: "" }, "msg: a StdTx carries at least one Msg"],
        [{ type: "core-sdk/MsgSend", value: { msg } }, 'type: expected core-sdk/StdTx, got "core-sdk/MsgSend"'],
        [{ msg, fee: "free" }, 'fee: expected {"amount", "gas"}'],
        [[msg], "expected a StdTx object"],
      ];
      for (const [body, message] of refused) {
        const r = await post("/txs/encode", body);
        expect([r.status, r.body], JSON.stringify(body)).to.deep.equal([400, { error: `failed to decode JSON payload: ${message}` }]);
      }
      const unknown = await post("/txs/encode", { msg: [{ type: "x/MsgUnknown", value: {} }], fee: FEE, signatures: null, memo: "" });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.error).to.match(
        /^this endpoint does not support txs that are not serializable via Amino.* \(msg\[0\]\.type: unknown amino type "x\/MsgUnknown"\)$/,
      );
    });

    it("POST /txs: a signature that is not {pub_key, signature}, or without its key, is a 400 naming it (the real conversion answered 500)", async () => {
      const from = wallets[5]!;
      const sequence = sequences.get(from.accountNumber) ?? 0;
      const tx = await stdTx(from, wallets[4]!.address, "1");
      sequences.set(from.accountNumber, sequence); // never broadcast
      const refused: Array<[unknown[], string]> = [
        [[null], 'tx.signatures[0]: expected a signature {"pub_key", "signature"}'],
        [[1, 2], 'tx.signatures[0]: expected a signature {"pub_key", "signature"}'],
        [[[[]]], 'tx.signatures[0]: expected a signature {"pub_key", "signature"}'],
        [[{ ...(tx.signatures as object[])[0], pub_key: null }], 'tx.signatures[0].pub_key: required: the signer\'s public key {"type", "value"}'],
        [
          [{ signature: (tx.signatures as Array<{ signature: string }>)[0]!.signature }],
          'tx.signatures[0].pub_key: required: the signer\'s public key {"type", "value"}',
        ],
        [[{ pub_key: { type: "x/PubKey", value: "AA==" }, signature: "AA==" }], 'tx.signatures[0].pub_key.type: unknown amino type "x/PubKey"'],
      ];
      for (const [signatures, message] of refused) {
        const r = await post("/txs", { tx: { ...tx, signatures }, mode: "block" });
        expect([r.status, r.body], JSON.stringify(signatures)).to.deep.equal([400, { error: `failed to decode JSON payload: ${message}` }]);
      }
    });
  });

  describe("GET /txs/{hash} and GET /txs", () => {
    it("GET /txs/{hash}: the transaction query result, the tx as its StdTx with the amino signature", async () => {
      const r = await get(`/txs/${hashes[0]}`);
      expect(r.status, r.text).to.equal(200);
      expect(r.headers.get("deprecation")).to.equal("true");
      expect(Object.keys(r.body)).to.deep.equal(["height", "txhash", "data", "raw_log", "logs", "gas_wanted", "gas_used", "tx", "timestamp"]);
      expect(r.body.txhash).to.equal(hashes[0]);
      expect(r.body.data).to.equal("0A060A0473656E64");
      // raw_log is v0.41's text (msg_index 0 and an empty log omitted); logs write both (README: does better)
      const rawLogs = JSON.parse(r.body.raw_log) as object[];
      expect(r.body.logs).to.deep.equal(rawLogs.map((log, i) => ({ msg_index: i, log: "", ...log })));
      expect(r.body.timestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(r.body.tx.type).to.equal("core-sdk/StdTx");
      expect(r.body.tx.value.msg).to.deep.equal([
        {
          type: "core-sdk/MsgSend",
          value: { from_address: wallets[0]!.address, to_address: wallets[1]!.address, amount: [{ denom: "uhub", amount: "1000" }] },
        },
      ]);
      expect(r.body.tx.value.fee).to.deep.equal(FEE);
      expect(r.body.tx.value.memo).to.equal("legacy block");
      expect(r.body.tx.value.timeout_height).to.equal("0");
      expect(r.body.tx.value.signatures[0].pub_key.type).to.equal("consensus/PubKeySecp256k1");
    });

    it("GET /txs/{hash} of a SIGN_MODE_DIRECT tx shows no signatures; unknown hashes are 404", async () => {
      const signer = await testSigner(TEST_MNEMONIC, 5);
      const bytes = await directTx(signer, { messages: [send(signer.address, wallets[0]!.address, "9")], sequence: 0, accountNumber: 5 });
      const sent = await post("/core/tx/v1beta1/txs", { tx_bytes: Buffer.from(bytes).toString("base64"), mode: "BROADCAST_MODE_BLOCK" });
      expect(sent.body.tx_response.code, sent.body.tx_response.raw_log).to.equal(0);
      const r = await get(`/txs/${sent.body.tx_response.txhash}`);
      expect(r.body.tx.value.signatures).to.deep.equal([]);
      const missing = await get(`/txs/${"AB".repeat(32)}`);
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ error: `tx (${"AB".repeat(32)}) not found` });
      expect((await get("/txs/nothex")).status).to.equal(400);
    });

    it("GET /txs: events, tx.minheight / tx.maxheight, page and limit, in the search result shape", async () => {
      const sender = wallets[0]!.address;
      const r = await get(`/txs?message.sender=${sender}&message.action=send`);
      expect(r.status, r.text).to.equal(200);
      expect(Object.keys(r.body)).to.deep.equal(["total_count", "count", "page_number", "page_total", "limit", "txs"]);
      expect(r.body).to.include({ total_count: "4", count: "4", page_number: "1", page_total: "1", limit: "30" });
      expect(r.body.txs.map((t: { txhash: string }) => t.txhash)).to.deep.equal(hashes);
      expect(r.body.txs[0].tx.type).to.equal("core-sdk/StdTx");
      const paged = await get(`/txs?message.sender=${sender}&page=2&limit=3`);
      expect(paged.body).to.include({ total_count: "4", count: "1", page_number: "2", page_total: "2", limit: "3" });
      expect(paged.body.txs.map((t: { txhash: string }) => t.txhash)).to.deep.equal(hashes.slice(3));
      const first = Number((await get(`/txs/${hashes[1]}`)).body.height);
      const ranged = await get(`/txs?message.sender=${sender}&tx.minheight=${first}&tx.maxheight=${first}`);
      expect(ranged.body.txs.map((t: { txhash: string }) => t.txhash)).to.deep.equal([hashes[1]]);
      expect((await get("/txs")).text).to.equal("null");
      const onlyPage = await get("/txs?page=1");
      expect(onlyPage.status).to.equal(400);
      expect(onlyPage.body).to.deep.equal({ error: "must declare at least one event to search" });
      expect((await get(`/txs?message.sender=${sender}&limit=0`)).body).to.deep.equal({ error: "limit must greater than 0" });
    });
  });

  describe("generate-only POST, then sign and broadcast (the legacy flow)", () => {
    it("POST /bank/accounts/{address}/transfers builds the unsigned StdTx; signed with cosmjs, POST /txs executes it", async () => {
      const [from, to] = [wallets[3]!, wallets[2]!];
      const before = await balance(to.address);
      const r = await post(`/bank/accounts/${to.address}/transfers`, {
        base_req: { from: from.address, chain_id: CHAIN_ID, fees: [{ denom: "uhub", amount: "2000" }], memo: "generated" },
        amount: [{ denom: "uhub", amount: "123" }],
      });
      expect(r.status, r.text).to.equal(200);
      expect(r.headers.get("deprecation")).to.equal("true");
      expect(r.body).to.deep.equal({
        type: "core-sdk/StdTx",
        value: {
          msg: [{ type: "core-sdk/MsgSend", value: { from_address: from.address, to_address: to.address, amount: [{ denom: "uhub", amount: "123" }] } }],
          fee: { amount: [{ denom: "uhub", amount: "2000" }], gas: "200000" },
          signatures: null,
          memo: "generated",
          timeout_height: "0",
        },
      });
      const unsigned = r.body.value;
      const signature = await from.sign(unsigned.msg, unsigned.fee, unsigned.memo, nextSequence(from));
      const sent = await post("/txs", { tx: { ...unsigned, signatures: [signature] }, mode: "block" });
      expect(sent.body.code, sent.body.raw_log).to.equal(undefined);
      expect(await balance(to.address)).to.equal(before + 123n);
    });

    it("base_req.simulate answers the gas estimate (times gas_adjustment); gas auto uses it", async () => {
      const [from, to] = [wallets[3]!, wallets[2]!];
      const simulate = await post(`/bank/accounts/${to.address}/transfers`, {
        base_req: { from: from.address, simulate: true },
        amount: [{ denom: "uhub", amount: "1" }],
      });
      expect(simulate.status, simulate.text).to.equal(200);
      expect(Object.keys(simulate.body)).to.deep.equal(["gas_estimate"]);
      const used = Number(simulate.body.gas_estimate);
      expect(used).to.be.greaterThan(10_000);
      const adjusted = await post(`/bank/accounts/${to.address}/transfers`, {
        base_req: { from: from.address, simulate: true, gas_adjustment: "1.5" },
        amount: [{ denom: "uhub", amount: "1" }],
      });
      expect(Number(adjusted.body.gas_estimate)).to.equal(Math.floor(used * 1.5));
      const auto = await post(`/bank/accounts/${to.address}/transfers`, {
        base_req: { from: from.address, chain_id: CHAIN_ID, gas: "auto", gas_prices: [{ denom: "uhub", amount: "0.025" }] },
        amount: [{ denom: "uhub", amount: "1" }],
      });
      expect(auto.body.value.fee).to.deep.equal({ amount: [{ denom: "uhub", amount: String(Math.ceil(used * 0.025)) }], gas: String(used) });
    });

    it("base_req is checked as the real server checks it: 401, 400, 402", async () => {
      const to = wallets[2]!.address;
      const transfer = (base_req: unknown) => post(`/bank/accounts/${to}/transfers`, { base_req, amount: [{ denom: "uhub", amount: "1" }] });
      const from = wallets[3]!.address;
      expect((await transfer({ from })).body).to.deep.equal({ error: "chain-id required but not specified" });
      expect((await transfer({ from })).status).to.equal(401);
      const both = await transfer({ from, chain_id: CHAIN_ID, fees: [{ denom: "uhub", amount: "1" }], gas_prices: [{ denom: "uhub", amount: "0.1" }] });
      expect([both.status, both.body.error]).to.deep.equal([400, "cannot provide both fees and gas prices"]);
      // neither valid (a zero fee, a gas price of a malformed denom), and not both given
      const invalid = await transfer({ from, chain_id: CHAIN_ID, fees: [{ denom: "uhub", amount: "0" }], gas_prices: [{ denom: "u", amount: "0.1" }] });
      expect([invalid.status, invalid.body.error]).to.deep.equal([402, "invalid fees or gas prices provided"]);
      const badFrom = await transfer({ from: "validator-key", chain_id: CHAIN_ID });
      expect([badFrom.status, badFrom.body.error]).to.deep.equal([401, "invalid from address: validator-key"]);
      const noBody = await post(`/bank/accounts/${to}/transfers`, []);
      expect(noBody.status).to.equal(400);
    });
  });
});
