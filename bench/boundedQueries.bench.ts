/**
 * Bounded queries at scale, on a generated home of HOLDERS funded accounts and
 * DELEGATIONS delegations over VALIDATORS validators (boundedQueriesHome.ts):
 *  - a page of 100 of one validator's delegations by pagination.key, from
 *    deep keys on (walks as a client pages), against the first page: p50/p99;
 *  - the same page with count_total (the scan past the page, within api.max-count-total);
 *  - 1,000 concurrent identical cold GETs over HTTP → query executions (api_query_executions_total);
 *  - a page of 100 holders of uhub (denom_owners) by key deep among HOLDERS, against the first page;
 *  - the same for the holders largest first (top_holders), from deep keys of the by-amount index.
 * Prints one JSON line and writes its rows into bench/results.json.
 *
 *   node --max-old-space-size=16384 --import tsx bench/boundedQueries.bench.ts [holders=1000000] [delegations=1000000]
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { decodeBech32Address, encodeBech32Address } from "../src/codec/bech32.js";
import { holderByAmountKey, holdersByAmountPrefix } from "../src/node/indexes/indexKeys.js";
import { Codec } from "../src/codec/codec.js";
import { startRestServer } from "../src/commands/restServer.js";
import { EmbeddedNode } from "../src/node/embeddedNode.js";
import { InProcessClient } from "../src/node/inProcessClient.js";
import { Telemetry } from "../src/telemetry/telemetry.js";
import { testApiConfig } from "../test/helpers/testApiConfig.js";
import { scratchDir, timings } from "./benchTools.js";
import { boundedQueriesHome } from "./boundedQueriesHome.js";
import { TEST_TELEMETRY } from "../test/helpers/testTelemetry.js";

const HOLDERS = Number(process.argv[2] ?? 1_000_000);
const DELEGATIONS = Number(process.argv[3] ?? 1_000_000);
const VALIDATORS = 100;
const CONCURRENT = 1_000;
const WALKS = 10;
const PAGES_PER_WALK = 20;
const codec = new Codec();

const load = () => os.loadavg()[0]!.toFixed(1);
const loadBefore = load();
let started = performance.now();
const { home, operators } = boundedQueriesHome(scratchDir("bounded"), HOLDERS, DELEGATIONS, VALIDATORS);
const generationMs = performance.now() - started;
console.error(`generated the genesis in ${(generationMs / 1000).toFixed(0)} s`);
started = performance.now();
const imported = await EmbeddedNode.open({
  home,
  bech32Prefix: "hub",
  keepRecent: 100,
  moniker: "bench",
  codec,
  importProgress: (line) => console.error(line),
});
const importMs = performance.now() - started;
// measured as an operator runs it: a start of the imported home (the import's heap gone)
await imported.close();
const node = await EmbeddedNode.open({ home, bech32Prefix: "hub", keepRecent: 100, moniker: "bench", codec });

async function query<T>(method: string, requestType: string, request: object): Promise<T> {
  const type = codec.type(requestType);
  const answer = await node.query(method, type.encode(type.fromObject(request)).finish());
  if (answer.code !== 0) throw new Error(answer.log);
  return codec.type(requestType.replace(/Request$/, "Response")).decode(answer.value) as unknown as T;
}
type Paged = { pagination: { next_key: Uint8Array; total: { toString(): string } } };

// a validator's delegations: walks of pages by next_key from deep keys (delegators past the middle of the key space)
const operator = operators[37]!;
const validatorDelegations = (pagination: object) =>
  query<Paged & { delegation_responses: unknown[] }>(
    "/core.staking.v1beta1.Query/ValidatorDelegations",
    "core.staking.v1beta1.QueryValidatorDelegationsRequest",
    {
      validator_addr: operator,
      pagination,
    },
  );
const firstPage = await validatorDelegations({ limit: 100, count_total: true });
const perValidator = Number(firstPage.pagination.total.toString());
const genesis = JSON.parse(fs.readFileSync(path.join(home, "config", "genesis.json"), "utf8")) as {
  app_state: { bank: { balances: Array<{ address: string }> } };
};
const deepAddresses = genesis.app_state.bank.balances
  .map((b) => decodeBech32Address(b.address, "hub", "address"))
  .filter((bytes) => bytes[0]! >= 0x80 && bytes[0]! < 0xa0);
const operatorBytes = decodeBech32Address(operator, "hubvaloper", "validator");
let next: Uint8Array = new Uint8Array();
const firstDelegations = await timings(200, () => validatorDelegations({ limit: 100 }));
const deepDelegations = await timings(WALKS * PAGES_PER_WALK, async (i) => {
  const start = i % PAGES_PER_WALK === 0 ? Uint8Array.from([...deepAddresses[((i / PAGES_PER_WALK) * 997) % deepAddresses.length]!, ...operatorBytes]) : next;
  next = (await validatorDelegations({ key: start, limit: 100 })).pagination.next_key;
});
const counted = await timings(50, () => validatorDelegations({ limit: 100, count_total: true }));

// holders of uhub: pages by key deep among all holders, against the first page
const owners = (pagination: object) =>
  query<Paged & { denom_owners: unknown[] }>("/core.bank.v1beta1.Query/DenomOwners", "core.bank.v1beta1.QueryDenomOwnersRequest", {
    denom: "uhub",
    pagination,
  });
const firstHolders = await timings(200, () => owners({ limit: 100 }));
const deepHolders = await timings(WALKS * PAGES_PER_WALK, async (i) => {
  const start = i % PAGES_PER_WALK === 0 ? deepAddresses[((i / PAGES_PER_WALK) * 991 + 5) % deepAddresses.length]! : next;
  const page = await owners({ key: start, limit: 100 });
  if (page.denom_owners.length !== 100) throw new Error(`a page of ${page.denom_owners.length} holders`);
  next = page.pagination.next_key;
});

// the holders largest first: pages by key from deep entries of the by-amount index, against the first page
const topHolders = (pagination: object) =>
  query<Paged & { denom_owners: Array<{ balance: { amount: string } }> }>("/core.bank.v1beta1.Query/TopHolders", "core.bank.v1beta1.QueryDenomOwnersRequest", {
    denom: "uhub",
    pagination,
  });
const byAmountKey = async (holder: Uint8Array) => {
  const balance = await query<{ balance: { amount: string } }>("/core.bank.v1beta1.Query/Balance", "core.bank.v1beta1.QueryBalanceRequest", {
    address: encodeBech32Address("hub", holder),
    denom: "uhub",
  });
  return holderByAmountKey("uhub", BigInt(balance.balance.amount), holder).subarray(holdersByAmountPrefix("uhub").length);
};
const firstTop = await timings(200, () => topHolders({ limit: 100 }));
const deepTop = await timings(WALKS * PAGES_PER_WALK, async (i) => {
  const start = i % PAGES_PER_WALK === 0 ? await byAmountKey(deepAddresses[((i / PAGES_PER_WALK) * 983 + 11) % deepAddresses.length]!) : next;
  const page = await topHolders({ key: start, limit: 100 });
  if (page.denom_owners.length !== 100) throw new Error(`a page of ${page.denom_owners.length} top holders`);
  next = page.pagination.next_key;
});

// 1,000 concurrent identical cold GETs over HTTP: query executions counted by the server
const telemetry = new Telemetry(TEST_TELEMETRY);
const rest = await startRestServer(
  testApiConfig({ swagger: false, "max-open-connections": 0, "max-idle-connections": 10_000 }),
  "hub",
  new InProcessClient(node),
  codec,
  undefined,
  {
    telemetry,
  },
);
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const get = (url: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
const executions = async () => Number(/^chain_rest_api_query_executions_total (\d+)/m.exec((await get(`${rest.url}/metrics?format=prometheus`)).body)![1]);
const before = await executions();
const route = `${rest.url}/core/staking/v1beta1/validators/${operators[61]}/delegations?pagination.limit=100&pagination.count_total=true`;
const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => get(route)));
const ran = (await executions()) - before;
const distinctBodies = new Set(answers.map((a) => a.body)).size;
if (answers.some((a) => a.status !== 200)) throw new Error(`statuses ${[...new Set(answers.map((a) => a.status))].join(", ")}`);
await rest.close();
await node.close();

const result = {
  holders: HOLDERS,
  delegations: DELEGATIONS,
  validators: VALIDATORS,
  perValidator,
  generationMs,
  importMs,
  load: [loadBefore, load()],
  firstDelegations,
  deepDelegations,
  counted,
  firstHolders,
  deepHolders,
  firstTop,
  deepTop,
  concurrent: CONCURRENT,
  executions: ran,
  distinctBodies,
};
console.log(JSON.stringify(result));

const ms = (n: number) => `${n.toFixed(2)} ms`;
const n = (x: number) => x.toLocaleString("en");
const setting = `generated home: ${n(HOLDERS)} accounts holding uhub, ${n(DELEGATIONS)} delegations over ${VALIDATORS} validators (${n(perValidator)} each); genesis written in ${(generationMs / 1000).toFixed(0)} s, imported in ${(importMs / 1000).toFixed(0)} s (then started again for the measurements); load average ${result.load.join(" → ")} on 2 cores shared with other work`;
const from = new Date().toISOString();
const rows = [
  {
    subject: `page of 100 of one validator's delegations by pagination.key deep among ${n(DELEGATIONS)} delegations (p99)`,
    baseline: "target",
    ratio: 20 / deepDelegations.p99,
    target: "≥ 1.0x (p99 ≤ 20 ms)",
    subjectValue: ms(deepDelegations.p99),
    baselineValue: "20 ms",
    note: `ratio = 20 ms / p99; p50 ${ms(deepDelegations.p50)}; the first page p50/p99 ${ms(firstDelegations.p50)} / ${ms(firstDelegations.p99)}; ${WALKS} walks of ${PAGES_PER_WALK} pages by next_key from deep keys; the embedded node's query, in process; ${setting}`,
    from,
  },
  {
    subject: `the same page with count_total (${n(perValidator)} delegations of the validator, within api.max-count-total 10,000) (p50)`,
    baseline: "the page without count_total (p50)",
    ratio: deepDelegations.p50 / counted.p50,
    target: "none (the count's cost, bounded by the cap)",
    subjectValue: ms(counted.p50),
    baselineValue: ms(deepDelegations.p50),
    note: `ratio = baseline / subject; p99 ${ms(counted.p99)}; ${setting}`,
    from,
  },
  {
    subject: `${n(CONCURRENT)} concurrent identical cold GETs (a validator's delegations with count_total) → query executions`,
    baseline: "one execution per request (no sharing)",
    ratio: CONCURRENT / Math.max(1, ran),
    target: "≥ 1000x (1 execution)",
    subjectValue: `${ran} execution(s), ${distinctBodies} distinct body`,
    baselineValue: `${n(CONCURRENT)} executions`,
    note: `ratio = requests / executions (api_query_executions_total over /metrics); HTTP over loopback, a connection per request, answer cache on and cold; ${setting}`,
    from,
  },
  {
    subject: `page of 100 holders of a denom (denom_owners) by pagination.key deep among ${n(HOLDERS)} holders (p50)`,
    baseline: "the first page of the same holders (p50)",
    ratio: firstHolders.p50 / deepHolders.p50,
    target: "≥ 0.5x (O(page): a deep page costs what the first costs)",
    subjectValue: ms(deepHolders.p50),
    baselineValue: ms(firstHolders.p50),
    note: `ratio = baseline / subject; p99 ${ms(deepHolders.p99)} vs ${ms(firstHolders.p99)}; holders in address order (v0.46's DenomOwners); ${setting}`,
    from,
  },
  {
    subject: `page of 100 top holders of a denom (top_holders, largest first) by pagination.key deep among ${n(HOLDERS)} holders (p50)`,
    baseline: "the first page of the same holders (p50)",
    ratio: firstTop.p50 / deepTop.p50,
    target: "≥ 0.5x (O(page): a deep page costs what the first costs)",
    subjectValue: ms(deepTop.p50),
    baselineValue: ms(firstTop.p50),
    note: `ratio = baseline / subject; p99 ${ms(deepTop.p99)} vs ${ms(firstTop.p99)}; the by-amount index's key holds the amount, so a page reads no balance; ${setting}`,
    from,
  },
];
const file = path.join(import.meta.dirname, "results.json");
const results = JSON.parse(fs.readFileSync(file, "utf8")) as { results: Array<{ subject: string }> };
const subjects = new Set(rows.map((r) => r.subject));
results.results = [...results.results.filter((r) => !subjects.has(r.subject)), ...rows];
fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
