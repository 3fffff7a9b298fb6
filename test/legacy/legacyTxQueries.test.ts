import { expect } from "chai";
import { Codec } from "../../src/codec/codec.js";
import type { ChainClient, TxResult } from "../../src/client/chainClient.js";
import { createRestApp } from "../../src/server/restApp.js";
import { listen } from "../../src/server/httpServer.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { compileTables } from "../../src/commands/restServer.js";
import { SERVICE_METHODS } from "../../src/methods/index.js";
import { http } from "../helpers/http.js";
import { testApiConfig } from "../helpers/testApiConfig.js";

const API = testApiConfig({ swagger: false, "rpc-max-body-bytes": 10_000 });

const codec = new Codec();

/** TxRaw bytes with these Msgs (Anys), signed by nobody. */
function txBytes(messages: Array<{ type_url: string; value: Uint8Array }>): Uint8Array {
  const body = codec.type("core.tx.v1beta1.TxBody").encode({ messages }).finish();
  const authInfo = codec
    .type("core.tx.v1beta1.AuthInfo")
    .encode({ fee: { gas_limit: 100000 } })
    .finish();
  return codec.type("core.tx.v1beta1.TxRaw").encode({ body_bytes: body, auth_info_bytes: authInfo, signatures: [] }).finish();
}

function pack(name: string, value: Record<string, unknown>) {
  const type = codec.type(name);
  return { type_url: `/${name}`, value: type.encode(type.fromObject(value)).finish() };
}

function txResult(bytes: Uint8Array, hash: string): TxResult {
  return {
    hash,
    height: "7",
    index: 0,
    tx: Buffer.from(bytes).toString("base64"),
    tx_result: { code: 0, log: "[]", gas_wanted: "100000", gas_used: "5000", data: "", events: [] },
  };
}

/**
 * The legacy transaction query routes with transactions the embedded node
 * cannot execute (IBC core Msgs, a governance proposal), served by a node
 * fixture: the "cannot be displayed" errors of GET /txs/{hash} and GET /txs,
 * and the proposer found by a transaction search.
 */
describe("legacy transaction queries over transactions the development node cannot produce", () => {
  const ibcTx = txBytes([pack("ibc.core.client.v1.MsgUpdateClient", { client_id: "07-tendermint-0", signer: "hub1x" })]);
  const proposalTx = txBytes([
    pack("core.gov.v1beta1.MsgSubmitProposal", { content: pack("core.gov.v1beta1.TextProposal", { title: "t" }), proposer: "hub1proposer" }),
  ]);
  const searches: string[] = [];
  const client: ChainClient = {
    address: "fixture",
    abciQuery: () => Promise.reject(new Error("not used")),
    broadcastTx: () => Promise.reject(new Error("not used")),
    tx: async () => txResult(ibcTx, "AA".repeat(32)),
    txSearch: async (query) => {
      searches.push(query);
      const txs = query.includes("submit_proposal") ? [txResult(proposalTx, "BB".repeat(32))] : [txResult(ibcTx, "AA".repeat(32))];
      return { txs, total_count: String(txs.length) };
    },
    block: async () => ({ block: { header: { time: "2021-01-18T07:29:21.5Z" } } }),
    validators: () => Promise.reject(new Error("not used")),
    status: () => Promise.reject(new Error("not used")),
  };
  let server: RunningServer;

  before(async () => {
    const tables = compileTables(codec);
    server = await listen(
      createRestApp({
        gatewayRoutes: tables.gateway,
        legacy: tables.legacy,
        deps: { client, codec, services: SERVICE_METHODS, maxBodyBytes: 10_000, bech32Prefix: "hub" },
        cors: false,
      }),
      API,
    );
  });
  after(() => server?.close());

  it("GET /txs/{hash} of a transaction with an IBC core Msg: 500 with the real text, deprecation headers still set", async () => {
    const r = await http(`${server.url}/txs/${"AA".repeat(32)}`);
    expect(r.status).to.equal(500);
    expect(r.body).to.deep.equal({
      error:
        "this transaction cannot be displayed via legacy REST endpoints, because it does not support Amino serialization. Please either use CLI, gRPC, gRPC-gateway, or directly query the consensus RPC endpoint to query this transaction. The new REST endpoint (via gRPC-gateway) is /core/tx/v1beta1/txs/{txhash}. Please also see theREST endpoints migration guide at https://docs.cosmos.network/master/migrations/rest.html for more info",
    });
    expect(r.headers.get("deprecation")).to.equal("true");
  });

  it("GET /txs finding such a transaction: 500 with the real text of the search route", async () => {
    const r = await http(`${server.url}/txs?message.action=update_client`);
    expect(r.status).to.equal(500);
    expect(r.body.error).to.include("The new REST endpoint (via gRPC-gateway) is /core/tx/v1beta1/txs. Please also see theREST endpoints migration guide");
    expect(searches.at(-1)).to.equal("message.action='update_client'");
  });

  it("GET /txs turns tx.minheight, tx.maxheight and tx.height into height conditions", async () => {
    await http(`${server.url}/txs?message.action=send&tx.minheight=5&tx.maxheight=9`);
    expect(searches.at(-1)).to.equal("message.action='send' AND tx.height>=5 AND tx.height<=9");
    await http(`${server.url}/txs?tx.height=5`);
    expect(searches.at(-1)).to.equal("tx.height=5");
  });

  it("GET /gov/proposals/{proposal-id}/proposer finds the proposer in the submitting transaction", async () => {
    const r = await http(`${server.url}/gov/proposals/3/proposer`);
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.deep.equal({ height: "7", result: { proposal_id: "3", proposer: "hub1proposer" } });
    expect(searches.at(-1)).to.equal("message.action='submit_proposal' AND submit_proposal.proposal_id='3'");
  });
});
