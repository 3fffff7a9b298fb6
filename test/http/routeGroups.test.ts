import { expect } from "chai";
import Router from "@koa/router";
import Koa from "koa";
import { routeGroups, type PathSegment } from "../../src/http/routeGroups.js";

interface TestRoute {
  name: string;
  verb: "get" | "post";
  segments: PathSegment[];
}

const route = (name: string, verb: "get" | "post", path: string): TestRoute => ({
  name,
  verb,
  segments: path
    .split("/")
    .slice(1)
    .map((s) => (s.startsWith(":") ? { variable: s.slice(1) } : { literal: s })),
});

/** Routes of both kinds the tables have: literal prefixes, shared shapes, a variable early, a short path. */
const ROUTES = [
  route("balances", "get", "/core/bank/v1beta1/balances/:address"),
  route("balance-by-denom", "get", "/core/bank/v1beta1/balances/:address/by_denom"),
  route("params", "get", "/core/bank/v1beta1/params"),
  route("txs-post", "post", "/core/tx/v1beta1/txs"),
  route("txs-get", "get", "/core/tx/v1beta1/txs"),
  route("legacy-balances", "get", "/bank/balances/:address"),
  route("any-first", "get", "/:module/params/:key"),
  route("node-info", "get", "/node_info"),
];

/** A router of the given routes: each answers its name and the parameters it read, or passes on when told to. */
function routerOf(routes: TestRoute[]): Koa.Middleware {
  const router = new Router();
  for (const r of routes) {
    router[r.verb](`/${r.segments.map((s) => ("literal" in s ? s.literal : `:${s.variable}`)).join("/")}`, async (ctx, next) => {
      if (ctx.query.pass === r.name) return next();
      ctx.body = `${r.name} ${JSON.stringify(ctx.params)}`;
    });
  }
  return router.routes() as unknown as Koa.Middleware;
}

function appOf(middleware: Koa.Middleware): Koa {
  const app = new Koa();
  app.use(middleware);
  app.use((ctx) => {
    ctx.status = 501;
    ctx.body = "none";
  });
  return app;
}

async function answer(app: Koa, method: string, url: string): Promise<string> {
  const server = app.listen(0);
  try {
    const { port } = server.address() as { port: number };
    const r = await fetch(`http://127.0.0.1:${port}${url}`, { method });
    return `${r.status} ${await r.text()}`;
  } finally {
    server.close();
  }
}

describe("routes dispatched by path prefix (routeGroups)", () => {
  const whole = appOf(routerOf(ROUTES));
  const grouped = appOf(routeGroups(ROUTES, (r) => r.segments, routerOf));

  const requests: Array<[string, string]> = [
    ["GET", "/core/bank/v1beta1/balances/hub1abc"],
    ["GET", "/core/bank/v1beta1/balances/hub1abc/by_denom"],
    ["GET", "/CORE/Bank/v1beta1/balances/hub1abc"], // the routers match without case
    ["GET", "/core/bank/v1beta1/balances/hub1%2Fabc"],
    ["GET", "/core/bank/v1beta1/balances/hub1abc/"],
    ["GET", "/core/bank/v1beta1/params"],
    ["GET", "/core/bank/v1beta1/params?pass=params"],
    ["POST", "/core/tx/v1beta1/txs"],
    ["GET", "/core/tx/v1beta1/txs"],
    ["PUT", "/core/tx/v1beta1/txs"],
    ["GET", "/bank/balances/hub1abc"],
    ["GET", "/bank/params/x"], // only the route with a variable first takes it
    ["GET", "/staking/params/y"],
    ["GET", "/%63ore/bank/v1beta1/params"], // encoded: no route's literal
    ["GET", "/node_info"],
    ["GET", "/node_info/"],
    ["GET", "/"],
    ["GET", "//core/bank"],
    ["GET", "/nothing/here/at/all"],
  ];
  for (const [method, url] of requests) {
    it(`${method} ${url}: the same answer as one router of every route`, async () => {
      expect(await answer(grouped, method, url)).to.equal(await answer(whole, method, url));
    });
  }

  it("builds a group's router once, from only the routes that can match it", async () => {
    const built: string[][] = [];
    const app = appOf(
      routeGroups(
        ROUTES,
        (r) => r.segments,
        (subset) => {
          built.push(subset.map((r) => r.name));
          return routerOf(subset);
        },
      ),
    );
    await answer(app, "GET", "/core/bank/v1beta1/params");
    await answer(app, "GET", "/core/bank/v1beta1/balances/a");
    await answer(app, "GET", "/unknown/thing");
    expect(built).to.deep.equal([["balances", "balance-by-denom", "params"]]);
  });
});
