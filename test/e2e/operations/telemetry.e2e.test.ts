import { expect } from "chai";
import path from "node:path";
import { readDevAccounts } from "../../../src/commands/home.js";
import { TEST_MNEMONIC } from "../../helpers/devNode.js";
import { http } from "../../helpers/http.js";
import { pollUntil } from "../../helpers/poll.js";
import { startNode, type StartedNode } from "../../helpers/processes.js";
import { initDevHome } from "../../helpers/devHome.js";
import { Scrape } from "../../helpers/prometheusScrape.js";
import { enableTelemetry } from "../../helpers/telemetryHome.js";
import { tempDir } from "../../helpers/tempDir.js";
import { directTx, send, testSigner } from "../../helpers/txSigner.js";

const BALANCES = "/core/bank/v1beta1/balances/{address}";
const LEGACY_BALANCES = "/bank/balances/{address}";
const REQUESTS = "chain_rest_api_requests_total";
const DURATION = "chain_rest_api_request_duration_seconds";

/** JSON log lines of the process so far. */
function logLines(output: string): Array<Record<string, unknown>> {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("e2e: telemetry, request logs and transaction logs of `start`", function () {
  this.timeout(90_000);
  const home = path.join(tempDir(), "home");
  let node: StartedNode;
  let accounts: string[];

  before(async () => {
    initDevHome(home, { mnemonic: TEST_MNEMONIC });
    enableTelemetry(home);
    node = await startNode(home, ["--log-format", "json"]);
    accounts = readDevAccounts(home)!.accounts.map((a) => a.address);
  });
  after(async () => {
    await node?.proc.stop();
  });

  it("counts requests by route template, exactly as sent, never by raw path; a histogram's count equals its counters", async () => {
    const before = await Scrape.of(node.restUrl);
    const addresses = accounts.slice(0, 5);
    for (const address of addresses) expect((await http(`${node.restUrl}/core/bank/v1beta1/balances/${address}`)).status).to.equal(200);
    // the same address twice more: the second may come from the answer cache, counted under the same template
    for (let i = 0; i < 2; i++) expect((await http(`${node.restUrl}/core/bank/v1beta1/balances/${addresses[0]}`)).status).to.equal(200);
    expect((await http(`${node.restUrl}/bank/balances/${addresses[1]}`)).status).to.equal(200);
    expect((await http(`${node.restUrl}/core/bank/v1beta1/balances/not-an-address`)).status).to.equal(400);
    expect((await http(`${node.restUrl}/no/such/path/${addresses[2]}`)).status).to.equal(501);
    const after = await Scrape.of(node.restUrl);

    const gateway = { family: "gateway", route: BALANCES, method: "GET" };
    expect(after.value(REQUESTS, { ...gateway, status: "200" }) - before.value(REQUESTS, { ...gateway, status: "200" })).to.equal(7);
    expect(after.value(REQUESTS, { ...gateway, status: "400" }) - before.value(REQUESTS, { ...gateway, status: "400" })).to.equal(1);
    const legacy = { family: "legacy", route: LEGACY_BALANCES, method: "GET", status: "200" };
    expect(after.value(REQUESTS, legacy) - before.value(REQUESTS, legacy)).to.equal(1);
    const unmatched = { family: "none", route: "unmatched", method: "GET", status: "501" };
    expect(after.value(REQUESTS, unmatched) - before.value(REQUESTS, unmatched)).to.equal(1);
    // the scrape before this one is counted; a scrape does not count itself
    const scrapes = { family: "ops", route: "/metrics", method: "GET", status: "200" };
    expect(after.value(REQUESTS, scrapes) - before.value(REQUESTS, scrapes)).to.equal(1);

    // no label anywhere holds an address or a raw path
    for (const address of addresses) expect(after.text.includes(address)).to.equal(false);
    expect(after.text.includes("not-an-address")).to.equal(false);

    // per (template, method): the histogram's count is the sum of the counters over statuses
    const histograms = after.histogramCounts(DURATION);
    expect(histograms.length).to.be.at.least(4);
    for (const series of histograms) {
      const labels = { family: series.labels!.family!, route: series.labels!.route!, method: series.labels!.method! };
      const counted = after.samples(REQUESTS, labels).reduce((sum, s) => sum + Number(s.value), 0);
      expect(Number(series.value), JSON.stringify(labels)).to.equal(counted);
    }
    const balances = { family: "gateway", route: BALANCES, method: "GET" };
    expect(after.histogramCount(DURATION, balances) - before.histogramCount(DURATION, balances)).to.equal(8);
    // the global label is on every series of ours
    for (const sample of after.family(REQUESTS).metrics) expect(sample.labels?.chain_id).to.equal("devnet-1");
  });

  it("counts answer cache hits and misses, and reads of the store", async () => {
    const before = await Scrape.of(node.restUrl);
    const route = `/core/bank/v1beta1/balances/${accounts[6]}`;
    for (let i = 0; i < 4; i++) expect((await http(`${node.restUrl}${route}`)).status).to.equal(200);
    const after = await Scrape.of(node.restUrl);
    const hits = after.value("chain_rest_api_answer_cache_hits_total") - before.value("chain_rest_api_answer_cache_hits_total");
    const misses = after.value("chain_rest_api_answer_cache_misses_total") - before.value("chain_rest_api_answer_cache_misses_total");
    // /metrics is served in front of the cache; no block came between (no transactions)
    expect(hits + misses).to.equal(4);
    expect(hits).to.equal(2); // asked once: not kept; twice: kept; then answered from memory twice
    expect(after.value("chain_rest_api_answer_cache_bytes")).to.be.greaterThan(0);
    const reads = (s: Scrape, name: string) => s.value(name, { kind: "point" }) + s.value(name, { kind: "scan" });
    const storeReads = reads(after, "chain_rest_store_reads_total") - reads(before, "chain_rest_store_reads_total");
    const kept = reads(after, "chain_rest_store_kept_reads_hits_total") - reads(before, "chain_rest_store_kept_reads_hits_total");
    const leveldb = reads(after, "chain_rest_store_kept_reads_misses_total") - reads(before, "chain_rest_store_kept_reads_misses_total");
    expect(storeReads).to.be.greaterThan(0);
    expect(kept + leveldb).to.equal(storeReads);
  });

  it("counts the node's blocks and transactions by result code, and logs each transaction and block", async () => {
    const before = await Scrape.of(node.restUrl);
    const signer = await testSigner(TEST_MNEMONIC, 0);
    const account = (await http(`${node.restUrl}/core/auth/v1beta1/accounts/${signer.address}`)).body.account;
    const tx = await directTx(signer, {
      messages: [send(signer.address, accounts[1]!, "1000")],
      sequence: Number(account.sequence),
      accountNumber: Number(account.account_number),
    });
    const r = await http(`${node.restUrl}/core/tx/v1beta1/txs`, {
      method: "POST",
      body: JSON.stringify({ tx_bytes: Buffer.from(tx).toString("base64"), mode: "BROADCAST_MODE_BLOCK" }),
    });
    expect(r.body.tx_response?.code, r.text).to.equal(0);
    const { txhash, height } = r.body.tx_response as { txhash: string; height: string };
    const after = await pollUntil(
      () => Scrape.of(node.restUrl),
      (s) => s.value("chain_rest_node_height") >= Number(height),
    );
    const ok = { codespace: "", code: "0" };
    expect(after.value("chain_rest_node_txs_total", ok) - before.value("chain_rest_node_txs_total", ok)).to.equal(1);
    const blocks = (s: Scrape) => s.histogramCount("chain_rest_node_block_txs", {});
    expect(blocks(after) - blocks(before)).to.be.at.least(1);
    expect(after.histogramCount("chain_rest_node_commit_duration_seconds", {})).to.equal(blocks(after));
    expect(after.value("chain_rest_node_mempool_size")).to.equal(0);

    const lines = await pollUntil(
      async () => logLines(node.proc.output()),
      (all) => all.some((line) => line.msg === "block" && line.height === Number(height)),
    );
    const txLine = lines.find((line) => line.msg === "tx" && line.hash === txhash);
    expect(txLine, node.proc.output()).to.not.equal(undefined);
    expect(txLine).to.include({ height: Number(height), code: 0, codespace: "", level: "info" });
    expect(txLine!.msgs).to.deep.equal(["/core.bank.v1beta1.MsgSend"]);
    expect(txLine!.gas_used).to.be.greaterThan(0);
    expect(txLine!.gas_wanted).to.be.at.least(txLine!.gas_used as number);
    const blockLine = lines.find((line) => line.msg === "block" && line.height === Number(height));
    expect(blockLine).to.include({ txs: 1 });
    // one request line per request, with the template and not the path
    const broadcastLine = lines.find((line) => line.msg === "request" && line.method === "POST" && line.route === "/core/tx/v1beta1/txs");
    expect(broadcastLine).to.include({ family: "gateway", status: 200, cached: false });
    expect(lines.some((line) => line.msg === "request" && line.route === "/core/auth/v1beta1/accounts/{address}")).to.equal(true);
    expect(node.proc.output().includes(`"route":"/core/auth/v1beta1/accounts/${signer.address}"`)).to.equal(false);
  });

  it("answers v0.41's JSON form without a format, and 400 for a format it does not serve", async () => {
    const json = await http(`${node.restUrl}/metrics`);
    expect(json.status).to.equal(200);
    expect(json.headers.get("content-type")).to.match(/^application\/json/);
    expect(Object.keys(json.body)).to.deep.equal(["Timestamp", "Gauges", "Points", "Counters", "Samples"]);
    const counters = json.body.Counters as Array<{ Name: string; Count: number; Sum: number; Labels: Record<string, string> }>;
    const scrapes = counters.find((c) => c.Name === REQUESTS && c.Labels.route === "/metrics" && c.Labels.status === "200");
    expect(scrapes?.Count).to.be.greaterThan(0);
    expect((json.body.Gauges as Array<{ Name: string }>).some((g) => g.Name === "chain_rest_node_height")).to.equal(true);
    expect((json.body.Samples as Array<{ Name: string }>).some((g) => g.Name === DURATION)).to.equal(true);
    const bad = await http(`${node.restUrl}/metrics?format=xml`);
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.equal({ error: "failed to gather metrics: unsupported metrics format: xml" });
  });
});
