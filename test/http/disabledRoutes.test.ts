import { expect } from "chai";
import { startRestServer } from "../../src/commands/restServer.js";
import type { ApiConfig } from "../../src/config/appConfig.js";
import type { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { InProcessClient } from "../../src/node/inProcessClient.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { openDevNode } from "../helpers/devNode.js";
import { http } from "../helpers/http.js";
import { testApiConfig } from "../helpers/testApiConfig.js";

describe("routes an operator turns off (api.disabled-routes) or weighs (api.route-weights)", function () {
  this.timeout(60_000);
  let node: EmbeddedNode;
  let addresses: string[];
  const servers: RunningServer[] = [];
  const serve = async (overrides: Partial<ApiConfig>) => {
    const rest = await startRestServer(testApiConfig({ swagger: false, ...overrides }), "hub", new InProcessClient(node), node.codec);
    servers.push(rest);
    return rest.url;
  };

  before(async () => {
    ({ node, addresses } = await openDevNode());
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await node.close();
  });

  it("answers a disabled route 403 with its family's error body, and serves the others", async () => {
    const url = await serve({ "disabled-routes": "GET /core/bank/v1beta1/balances/{address}, /bank/balances/{address}" });
    const gateway = await http(`${url}/core/bank/v1beta1/balances/${addresses[0]}`);
    expect(gateway.status).to.equal(403);
    expect(gateway.body).to.deep.equal({
      code: 7,
      message: "GET /core/bank/v1beta1/balances/{address} is disabled by the operator of this server (api.disabled-routes)",
      details: [],
    });
    const legacy = await http(`${url}/bank/balances/${addresses[0]}`);
    expect(legacy.status).to.equal(403);
    expect(legacy.body).to.deep.equal({ error: "GET /bank/balances/{address} is disabled by the operator of this server (api.disabled-routes)" });
    expect((await http(`${url}/core/bank/v1beta1/balances/${addresses[0]}/uhub`)).status).to.equal(200);
    expect((await http(`${url}/core/auth/v1beta1/accounts/${addresses[0]}`)).status).to.equal(200);
  });

  it("disables only the verb named: GET /txs off, POST /txs still routed", async () => {
    const url = await serve({ "disabled-routes": "GET /txs" });
    expect((await http(`${url}/txs?message.action=send`)).status).to.equal(403);
    const post = await http(`${url}/txs`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(post.status).to.not.equal(403);
  });

  it("refuses to start with a template no table has, or a weight for an unknown class", async () => {
    let error: unknown;
    await serve({ "disabled-routes": "/core/bank/v1beta1/balance/{address}" }).catch((err: unknown) => (error = err));
    expect(String(error)).to.include('api.disabled-routes: no route of routes.yaml or legacy-routes.yaml is "/core/bank/v1beta1/balance/{address}"');
    error = undefined;
    await serve({ "route-weights": [["holder", "5"]] }).catch((err: unknown) => (error = err));
    expect(String(error)).to.include('api.route-weights: "holder" is neither a route class');
  });

  it("drains a client's bucket faster on a weighed route than on a balance", async () => {
    // a bucket of 10 that refills one token in 100 s: only the weights decide here
    const limits = { "rate-limit": 0.01, "rate-limit-burst": 10 };
    const url = await serve({ ...limits, "route-weights": [["validator-lists", "5"]] });
    const heavy = `${url}/core/staking/v1beta1/validators/hubvaloper1x/delegations`;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await http(heavy)).status);
    expect(statuses.slice(0, 2)).to.not.include(429);
    const refused = await http(heavy);
    expect(statuses[2]).to.equal(429);
    expect(refused.body.message).to.include("this route weighs 5 (api.route-weights)");
    const light = await serve({ ...limits, "route-weights": [["validator-lists", "5"]] });
    const balances: number[] = [];
    for (let i = 0; i < 11; i++) balances.push((await http(`${light}/core/bank/v1beta1/balances/${addresses[0]}`)).status);
    expect(balances.slice(0, 10).every((s) => s === 200)).to.equal(true);
    expect(balances[10]).to.equal(429);
  });

  it("weighs a template above its class's weight", async () => {
    const url = await serve({
      "rate-limit": 0.01,
      "rate-limit-burst": 10,
      "route-weights": [
        ["/core/bank/v1beta1/balances/{address}", "10"],
        ["validator-lists", "2"],
      ],
    });
    expect((await http(`${url}/core/bank/v1beta1/balances/${addresses[0]}`)).status).to.equal(200);
    expect((await http(`${url}/core/bank/v1beta1/balances/${addresses[0]}`)).status).to.equal(429);
  });
});
