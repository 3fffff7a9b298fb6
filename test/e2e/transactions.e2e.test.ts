import { expect } from "chai";
import { TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import path from "node:path";
import { readDevAccounts } from "../../src/commands/home.js";
import { http } from "../helpers/http.js";
import { startGateway, startNode, type RunningProcess, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { aminoSend, aminoTx, directTx, send, testSigner, type TestSigner } from "../helpers/txSigner.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { pollUntil } from "../helpers/poll.js";

/**
 * Transactions built and signed by the cosmjs packages, broadcast through
 * POST /core/tx/v1beta1/txs in each mode, then read back through the tx and
 * consensus services: in-process and through `chain-rest gateway --node`.
 */
type AbciEvent = { type: string; attributes: Array<{ key: string; value: string }> };
const eventTypes = (events: AbciEvent[] | undefined) => (events ?? []).map((e) => e.type);

describe("e2e: transactions and the tx and consensus services", function () {
  this.timeout(120_000);
  const home = path.join(tempDir(), "home");
  let node: StartedNode;
  let gateway: { proc: RunningProcess; restUrl: string };
  let signers: TestSigner[];

  before(async () => {
    initDevHome(home, { accounts: 6, mnemonic: TEST_MNEMONIC });
    expect(readDevAccounts(home)!.mnemonic).to.equal(TEST_MNEMONIC);
    signers = await Promise.all([...Array(6).keys()].map((i) => testSigner(TEST_MNEMONIC, i)));
    node = await startNode(home);
    gateway = await startGateway(path.join(tempDir(), "gateway-home"), node.rpcUrl);
  });

  after(async () => {
    await gateway?.proc.stop();
    await node?.proc.stop();
  });

  const modes = [
    { name: "in-process (chain-rest start)", url: () => node.restUrl, from: 0, to: 1, accountNumber: 0 },
    { name: "remote (chain-rest gateway --node)", url: () => gateway.restUrl, from: 2, to: 3, accountNumber: 2 },
  ];

  for (const mode of modes) {
    describe(mode.name, () => {
      let sequence = 0;
      const hashes: string[] = [];
      const get = (route: string) => http(`${mode.url()}${route}`);
      const post = (route: string, body: unknown) =>
        http(`${mode.url()}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      const balance = async (address: string) => BigInt((await get(`/core/bank/v1beta1/balances/${address}/uhub`)).body.balance.amount);
      const signed = () => {
        const from = signers[mode.from]!;
        const to = signers[mode.to]!;
        return directTx(from, {
          messages: [send(from.address, to.address, "1000")],
          sequence: sequence++,
          accountNumber: mode.accountNumber,
          memo: `mode ${mode.name}`,
        });
      };
      const waitForTx = (hash: string) =>
        pollUntil(
          () => get(`/core/tx/v1beta1/txs/${hash}`),
          (r) => r.status === 200,
        );

      it("BLOCK mode: the answer carries the block's result, and balances change", async () => {
        const to = signers[mode.to]!.address;
        const before = await balance(to);
        const r = await post("/core/tx/v1beta1/txs", { tx_bytes: Buffer.from(await signed()).toString("base64"), mode: "BROADCAST_MODE_BLOCK" });
        expect(r.status, r.text).to.equal(200);
        const response = r.body.tx_response;
        expect(response.code, response.raw_log).to.equal(0);
        expect(Number(response.height)).to.be.greaterThan(1);
        expect(response.txhash).to.match(/^[0-9A-F]{64}$/);
        expect(response.data).to.equal("0A060A0473656E64");
        expect(response.logs[0].events.map((e: { type: string }) => e.type)).to.deep.equal(["message", "transfer"]);
        expect(response.logs[0].events[0].attributes).to.deep.equal([
          { key: "action", value: "send" },
          { key: "sender", value: signers[mode.from]!.address },
          { key: "module", value: "bank" },
        ]);
        expect(response.logs[0].events[1].attributes).to.deep.equal([
          { key: "recipient", value: to },
          { key: "sender", value: signers[mode.from]!.address },
          { key: "amount", value: "1000uhub" },
        ]);
        expect(await balance(to)).to.equal(before + 1000n);
        hashes.push(response.txhash);
      });

      it("SYNC mode: answers after CheckTx, and the tx is committed right after", async () => {
        const r = await post("/core/tx/v1beta1/txs", { tx_bytes: Buffer.from(await signed()).toString("base64"), mode: "BROADCAST_MODE_SYNC" });
        expect(r.body.tx_response).to.include({ height: "0", code: 0, raw_log: "[]" });
        const found = await waitForTx(r.body.tx_response.txhash);
        expect(found.body.tx_response.code).to.equal(0);
        hashes.push(r.body.tx_response.txhash);
      });

      it("ASYNC mode: answers with the hash only", async () => {
        const r = await post("/core/tx/v1beta1/txs", { tx_bytes: Buffer.from(await signed()).toString("base64"), mode: 3 });
        expect(r.body.tx_response.txhash).to.match(/^[0-9A-F]{64}$/);
        expect(r.body.tx_response.code).to.equal(0);
        await waitForTx(r.body.tx_response.txhash);
        hashes.push(r.body.tx_response.txhash);
      });

      it("accepts a transaction signed with @cosmjs/amino (SIGN_MODE_LEGACY_AMINO_JSON)", async () => {
        const from = signers[mode.from]!;
        const to = signers[mode.to]!;
        const bytes = await aminoTx(from, {
          messages: [send(from.address, to.address, "42")],
          aminoMsgs: [aminoSend(from.address, to.address, "42")],
          sequence: sequence++,
          accountNumber: mode.accountNumber,
        });
        const r = await post("/core/tx/v1beta1/txs", { tx_bytes: Buffer.from(bytes).toString("base64"), mode: "BROADCAST_MODE_BLOCK" });
        expect(r.body.tx_response.code, r.body.tx_response.raw_log).to.equal(0);
        expect(eventTypes(r.body.tx_response.events)).to.include.members(["message", "transfer"]);
        hashes.push(r.body.tx_response.txhash);
      });

      it("GetTx answers the whole transaction with its response and block time", async () => {
        const r = await get(`/core/tx/v1beta1/txs/${hashes[0]}`);
        expect(r.status).to.equal(200);
        expect(r.body.tx.body.messages[0]).to.deep.equal({
          "@type": "/core.bank.v1beta1.MsgSend",
          from_address: signers[mode.from]!.address,
          to_address: signers[mode.to]!.address,
          amount: [{ denom: "uhub", amount: "1000" }],
        });
        expect(r.body.tx.auth_info.signer_infos[0].mode_info).to.deep.equal({ single: { mode: "SIGN_MODE_DIRECT" } });
        const response = r.body.tx_response;
        expect(response.txhash).to.equal(hashes[0]);
        expect(response.tx["@type"]).to.equal("/core.tx.v1beta1.Tx");
        expect(response.timestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        expect(JSON.parse(response.raw_log)[0].events[0].type).to.equal("message");
        // TxResponse.events (SDK v0.43): the DeliverTx events, attributes as base64 bytes as Tendermint 0.34 gives them
        expect(eventTypes(response.events)).to.include.members(["message", "transfer"]);
        const transfers = (response.events as AbciEvent[]).filter((e) => e.type === "transfer");
        const decoded = transfers.flatMap((e) => e.attributes.map((a) => [Buffer.from(a.key, "base64").toString(), Buffer.from(a.value, "base64").toString()]));
        expect(decoded).to.deep.include(["recipient", signers[mode.to]!.address]);
        const search = await get(`/core/tx/v1beta1/txs?events=${encodeURIComponent(`tx.hash='${hashes[0]}'`)}`);
        expect(eventTypes(search.body.tx_responses[0].events)).to.include("transfer");
        // the legacy answer stays v0.41's: no events
        expect((await get(`/txs/${hashes[0]}`)).body).to.not.have.property("events");
        expect((await get(`/core/tx/v1beta1/txs/${"AB".repeat(32)}`)).status).to.equal(404);
        expect((await get("/core/tx/v1beta1/txs/nothex")).status).to.equal(400);
      });

      it("GetTxsEvent finds the transactions by event, with values quoted or not", async () => {
        const sender = signers[mode.from]!.address;
        for (const value of [sender, `'${sender}'`]) {
          const r = await get(
            `/core/tx/v1beta1/txs?events=${encodeURIComponent(`message.sender=${value}`)}&events=${encodeURIComponent("message.action=send")}`,
          );
          expect(r.status, r.text).to.equal(200);
          expect(r.body.pagination.total).to.equal("4");
          expect(r.body.tx_responses.map((t: { txhash: string }) => t.txhash)).to.deep.equal(hashes);
          expect(r.body.txs).to.have.length(4);
        }
        const page = await get(`/core/tx/v1beta1/txs?events=${encodeURIComponent(`message.sender=${sender}`)}&pagination.limit=2&pagination.offset=2`);
        expect(page.body.tx_responses.map((t: { txhash: string }) => t.txhash)).to.deep.equal(hashes.slice(2));
        const bad = await get("/core/tx/v1beta1/txs?events=nonsense");
        expect(bad.status).to.equal(400);
        expect((await get("/core/tx/v1beta1/txs")).body.message).to.equal("must declare at least one event to search");
      });

      it("Simulate answers the gas a transaction uses, from tx_bytes or from the tx", async () => {
        const from = signers[mode.from]!;
        const bytes = await directTx(from, { messages: [send(from.address, signers[mode.to]!.address, "1")], sequence, accountNumber: mode.accountNumber });
        const r = await post("/core/tx/v1beta1/simulate", { tx_bytes: Buffer.from(bytes).toString("base64") });
        expect(r.status, r.text).to.equal(200);
        expect(Number(r.body.gas_info.gas_used)).to.be.greaterThan(10_000);
        expect(r.body.result.events.length).to.be.greaterThan(0);
        const tx = (await get(`/core/tx/v1beta1/txs/${hashes[0]}`)).body.tx;
        tx.auth_info.signer_infos[0].sequence = String(sequence);
        const fromTx = await post("/core/tx/v1beta1/simulate", { tx });
        expect(fromTx.status, fromTx.text).to.equal(200);
        const stale = await post("/core/tx/v1beta1/simulate", {
          tx_bytes: Buffer.from(
            await directTx(from, { messages: [send(from.address, from.address, "1")], sequence: 0, accountNumber: mode.accountNumber }),
          ).toString("base64"),
        });
        expect(stale.status, stale.text).to.equal(400);
        expect(stale.body.code).to.equal(3);
        expect(stale.body.message).to.include("account sequence mismatch").and.to.include("(codespace sdk, code 32)");
      });

      it("Simulate of a transaction the decoder or ante handler refuses is a 400 with its codespace, code and log", async () => {
        const garbage = await post("/core/tx/v1beta1/simulate", { tx_bytes: "AAAA" });
        expect(garbage.status, garbage.text).to.equal(400);
        expect(garbage.body.message).to.match(/tx parse error \(codespace sdk, code 2\)$/);
        const from = signers[mode.from]!;
        const noSignature = await directTx(from, { messages: [send(from.address, from.address, "1")], sequence, accountNumber: mode.accountNumber });
        const unsigned = TxRaw.encode({ ...TxRaw.decode(noSignature), signatures: [] }).finish();
        const r = await post("/core/tx/v1beta1/simulate", { tx_bytes: Buffer.from(unsigned).toString("base64") });
        expect(r.status, r.text).to.equal(400);
        expect(r.body.message).to.equal("no signatures supplied (codespace sdk, code 15)");
      });

      it("refuses bad broadcasts: empty bytes (400), an unknown mode (400), garbage bytes (code 2)", async () => {
        expect((await post("/core/tx/v1beta1/txs", { tx_bytes: "", mode: "BROADCAST_MODE_SYNC" })).body).to.deep.equal({
          code: 3,
          message: "invalid empty tx",
          details: [],
        });
        expect((await post("/core/tx/v1beta1/txs", { tx_bytes: "AAAA" })).status).to.equal(400);
        const garbage = await post("/core/tx/v1beta1/txs", { tx_bytes: "/////w==", mode: "BROADCAST_MODE_SYNC" });
        expect(garbage.body.tx_response.code).to.equal(2);
        expect(garbage.body.tx_response.codespace).to.equal("sdk");
      });

      it("serves blocks, node info, syncing and validator sets", async () => {
        const latest = await get("/core/base/consensus/v1beta1/blocks/latest");
        const height = Number(latest.body.block.header.height);
        expect(height).to.be.greaterThan(1);
        expect(latest.body.block.header.chain_id).to.equal("devnet-1");
        const one = await get("/core/base/consensus/v1beta1/blocks/1");
        expect(one.body.block.header.height).to.equal("1");
        expect(one.body.block_id.hash).to.match(/^[A-Za-z0-9+/]+=*$/);
        expect((await get("/core/base/consensus/v1beta1/blocks/999999")).status).to.equal(400);
        // a height that is not a number is a bad value of the route (as in the real gateway), not a path no route has (501)
        for (const route of ["blocks/abc", "validatorsets/0x10"]) {
          const r = await get(`/core/base/consensus/v1beta1/${route}`);
          expect(r.status, r.text).to.equal(400);
          expect(r.body.message).to.match(/^invalid request: height: ".*" is not a valid int64$/);
        }
        const info = await get("/core/base/consensus/v1beta1/node_info");
        expect(info.body.default_node_info.network).to.equal("devnet-1");
        expect(info.body.application_version.app_name).to.equal("chain-rest");
        // the SDK v0.43 field: the v0.41 surface served, never a newer version; absent from the legacy route, as v0.41's
        expect(info.body.application_version.cosmos_sdk_version).to.equal("v0.41.0");
        const legacyInfo = await get("/node_info");
        expect(legacyInfo.body.application_version).to.not.have.property("cosmos_sdk_version");
        expect(legacyInfo.body.application_version.server_name).to.equal("chain-rest");
        expect((await get("/core/base/consensus/v1beta1/syncing")).body).to.deep.equal({ syncing: false });
        const validators = await get("/core/base/consensus/v1beta1/validatorsets/latest");
        expect(validators.body.validators[0].address).to.match(/^hubvalcons1/);
        expect(validators.body.validators[0].pub_key["@type"]).to.equal("/core.crypto.ed25519.PubKey");
        expect((await get("/core/base/consensus/v1beta1/validatorsets/1")).body.block_height).to.equal("1");
      });

      it("refuses a validator-set offset that is not a uint64, or past the end, with 400 before or instead of a node error", async () => {
        expect((await get("/core/base/consensus/v1beta1/validatorsets/latest?pagination.limit=1&pagination.offset=0")).body.validators).to.have.length(1);
        for (const offset of ["-1", "0x10", "18446744073709551616"]) {
          const r = await get(`/core/base/consensus/v1beta1/validatorsets/latest?pagination.offset=${offset}`);
          expect(r.status, r.text).to.equal(400);
          expect(r.body.message).to.equal(
            `invalid request: pagination.offset: "${offset}" is ${offset.startsWith("1") ? "out of the uint64 range" : "not a valid uint64"}`,
          );
        }
        for (const route of ["latest?pagination.offset=5000", "1?pagination.offset=10000", "latest?pagination.limit=1&pagination.offset=1"]) {
          const r = await get(`/core/base/consensus/v1beta1/validatorsets/${route}`);
          expect(r.status, r.text).to.equal(400);
          expect(r.body.message).to.include("is past the end of the validator set");
        }
        // Deeper offsets meet api.max-page-offset first: the same 400, naming the cap.
        for (const route of [
          "latest?pagination.offset=4294967296",
          "1?pagination.offset=9223372036854775808",
          "latest?pagination.offset=18446744073709551615",
        ]) {
          const r = await get(`/core/base/consensus/v1beta1/validatorsets/${route}`);
          expect(r.status, r.text).to.equal(400);
          expect(r.body.message).to.include("is over api.max-page-offset (10000)");
        }
      });
    });
  }
});
