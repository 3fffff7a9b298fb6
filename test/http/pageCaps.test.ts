import { expect } from "chai";
import { RpcClient } from "../../src/client/rpcClient.js";
import { startRestServer } from "../../src/commands/restServer.js";
import type { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { setNodePageCaps } from "../../src/node/abci/nodePageCaps.js";
import { InProcessClient } from "../../src/node/inProcessClient.js";
import { startRpcServer } from "../../src/node/rpc/rpcServer.js";
import { Telemetry } from "../../src/telemetry/telemetry.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { openDevNode } from "../helpers/devNode.js";
import { http } from "../helpers/http.js";
import { Scrape } from "../helpers/prometheusScrape.js";
import { testApiConfig } from "../helpers/testApiConfig.js";
import { TEST_TELEMETRY } from "../helpers/testTelemetry.js";

const telemetry = () => new Telemetry(TEST_TELEMETRY);

const ACCOUNTS = "/core/auth/v1beta1/accounts";
const refusals = async (url: string, cap: string) => (await Scrape.of(url)).value("chain_rest_api_page_cap_refusals_total", { cap });

describe("page caps: api.max-page-limit, api.max-page-offset, api.max-count-total", function () {
  this.timeout(60_000);
  let node: EmbeddedNode;
  let accounts: number;
  const servers: RunningServer[] = [];
  /** A REST server of the in-process node with these caps (no answer cache: each ask reaches the node). */
  const serve = async (caps: { limit: number; offset: number; count: number }) => {
    const api = testApiConfig({
      swagger: false,
      "answer-cache-mb": 0,
      "max-page-limit": caps.limit,
      "max-page-offset": caps.offset,
      "max-count-total": caps.count,
    });
    const rest = await startRestServer(api, "hub", new InProcessClient(node), node.codec, undefined, { telemetry: telemetry() });
    servers.push(rest);
    return rest.url;
  };

  before(async () => {
    ({ node } = await openDevNode({ accounts: 8 }));
    const url = await serve({ limit: 1000, offset: 10_000, count: 10_000 });
    accounts = Number((await http(`${url}${ACCOUNTS}?pagination.count_total=true`)).body.pagination.total);
    expect(accounts).to.be.at.least(8);
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await node.close();
    setNodePageCaps(Number.POSITIVE_INFINITY, 1000); // the process-wide caps back to what other suites expect
  });

  it("refuses a gateway limit or offset over its cap with a 400 naming the setting, and counts it", async () => {
    const url = await serve({ limit: 5, offset: 3, count: 10_000 });
    const over = await http(`${url}${ACCOUNTS}?pagination.limit=6`);
    expect(over.status).to.equal(400);
    expect(over.body.code).to.equal(3);
    expect(over.body.message).to.include("api.max-page-limit (5)");
    const deep = await http(`${url}${ACCOUNTS}?pagination.limit=1&pagination.offset=4`);
    expect(deep.status).to.equal(400);
    expect(deep.body.message).to.include("api.max-page-offset (3)").and.include("pagination.key");
    const atCaps = await http(`${url}${ACCOUNTS}?pagination.limit=5&pagination.offset=3`);
    expect(atCaps.status, atCaps.text).to.equal(200);
    expect(atCaps.body.accounts).to.have.length(Math.min(5, accounts - 3));
    expect(await refusals(url, "limit")).to.equal(1);
    expect(await refusals(url, "offset")).to.equal(1);
  });

  it("refuses a legacy ?limit= or a page past the offset cap with the legacy error body", async () => {
    const url = await serve({ limit: 5, offset: 3, count: 10_000 });
    const over = await http(`${url}/staking/validators?limit=6`);
    expect(over.status).to.equal(400);
    expect(over.body.error).to.include("api.max-page-limit (5)");
    const deep = await http(`${url}/staking/validators?page=3&limit=2`);
    expect(deep.status).to.equal(400);
    expect(deep.body.error).to.include("api.max-page-offset (3)");
    expect((await http(`${url}/staking/validators?page=2&limit=2`)).status).to.equal(200);
  });

  it("gives limit = 0 v0.41's meaning within the caps: the default page (the cap when lower), the total counted", async () => {
    const url = await serve({ limit: 3, offset: 10_000, count: 10_000 });
    const page = await http(`${url}${ACCOUNTS}?pagination.limit=0`);
    expect(page.status, page.text).to.equal(200);
    expect(page.body.accounts).to.have.length(3);
    expect(page.body.pagination.total).to.equal(String(accounts));
    expect(page.body.pagination.next_key).to.be.a("string");
  });

  it("bounds the count's scan past the page: an asked count over it is a 400, the implied one is left out", async () => {
    const url = await serve({ limit: 1000, offset: 10_000, count: 2 });
    const asked = await http(`${url}${ACCOUNTS}?pagination.limit=1&pagination.count_total=true`);
    expect(asked.status).to.equal(400);
    expect(asked.body.message).to.include("api.max-count-total (2)");
    const within = await http(`${url}${ACCOUNTS}?pagination.limit=${accounts - 2}&pagination.count_total=true`);
    expect(within.status, within.text).to.equal(200);
    expect(within.body.pagination.total).to.equal(String(accounts));
    const implied = await http(`${url}${ACCOUNTS}?pagination.limit=0`); // the default page of 100 holds them all
    expect(implied.body.pagination.total).to.equal(String(accounts));
    const impliedPast = await serve({ limit: 1, offset: 10_000, count: 2 }); // limit 0 stands for 1 here
    const leftOut = await http(`${impliedPast}${ACCOUNTS}?pagination.limit=0`);
    expect(leftOut.status, leftOut.text).to.equal(200);
    expect(leftOut.body.accounts).to.have.length(1);
    expect(leftOut.body.pagination.total).to.equal("0");
    expect(await refusals(url, "count_total")).to.be.at.least(2); // the count cap is the node's, one per process
  });

  it("refuses limit and offset over the caps in front of a remote node too (gateway --node)", async () => {
    const rpc = await startRpcServer(node, new InProcessClient(node), "tcp://127.0.0.1:0");
    const remote = new RpcClient(rpc.url);
    const api = testApiConfig({ swagger: false, "answer-cache-mb": 0, "max-page-limit": 5, "max-page-offset": 3 });
    const rest = await startRestServer(api, "hub", remote, node.codec);
    try {
      const over = await http(`${rest.url}${ACCOUNTS}?pagination.limit=6`);
      expect(over.status).to.equal(400);
      expect(over.body.message).to.include("api.max-page-limit (5)");
      expect((await http(`${rest.url}${ACCOUNTS}?pagination.offset=4`)).body.message).to.include("api.max-page-offset (3)");
      expect((await http(`${rest.url}${ACCOUNTS}?pagination.limit=5`)).status).to.equal(200);
    } finally {
      await rest.close();
      await rpc.close();
    }
  });
});
