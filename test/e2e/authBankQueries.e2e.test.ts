import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { bech32 } from "bech32";
import { readDevAccounts } from "../../src/commands/home.js";
import { http, type HttpAnswer } from "../helpers/http.js";
import { startGateway, startNode, type RunningProcess, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";

const HEIGHT = "grpc-metadata-x-cosmos-block-height";
const ACCOUNTS = 250;

/**
 * The auth and bank gateway routes over HTTP against `chain-rest start`, and
 * the same assertions through `chain-rest gateway --node` in front of it.
 */
describe("e2e: auth and bank gateway routes", function () {
  this.timeout(120_000);
  const home = path.join(tempDir(), "home");
  const gatewayHome = path.join(tempDir(), "gateway-home");
  let node: StartedNode;
  let gateway: { proc: RunningProcess; restUrl: string };
  let addresses: string[];
  /** What the genesis says, so that the expectations follow whatever the modules put in it. */
  let genesisBalances: Map<string, Array<{ denom: string; amount: string }>>;
  let genesisSupply: Array<{ denom: string; amount: string }>;
  let genesisAccounts: number;
  /** uhub minted by each block after the first (the hub's mint: inflation × base ÷ blocks per year). */
  let mintedPerBlock: bigint;

  before(async () => {
    initDevHome(home, { accounts: ACCOUNTS });
    // Empty blocks every 200 ms, so that there are several heights to query.
    const configToml = path.join(home, "config", "config.toml");
    fs.writeFileSync(
      configToml,
      fs
        .readFileSync(configToml, "utf8")
        .replace("create_empty_blocks = false", "create_empty_blocks = true")
        .replace('create_empty_blocks_interval = "1s"', 'create_empty_blocks_interval = "200ms"'),
    );
    addresses = readDevAccounts(home)!.accounts.map((a) => a.address);
    const genesis = JSON.parse(fs.readFileSync(path.join(home, "config", "genesis.json"), "utf8"));
    const balances = genesis.app_state.bank.balances as Array<{ address: string; coins: Array<{ denom: string; amount: string }> }>;
    genesisBalances = new Map(balances.map((b) => [b.address, b.coins]));
    const totals = new Map<string, bigint>();
    for (const b of balances) for (const c of b.coins) totals.set(c.denom, (totals.get(c.denom) ?? 0n) + BigInt(c.amount));
    genesisSupply = [...totals].sort(([a], [b]) => (a < b ? -1 : 1)).map(([denom, amount]) => ({ denom, amount: amount.toString() }));
    genesisAccounts = genesis.app_state.auth.accounts.length;
    const mint = genesis.app_state.mint as { minter: { inflation_base: string }; params: { inflation: string } };
    const [whole, fraction = ""] = mint.params.inflation.split(".");
    const inflation = BigInt(whole!) * 10n ** 18n + BigInt(fraction.padEnd(18, "0"));
    mintedPerBlock = (inflation * BigInt(mint.minter.inflation_base)) / ((60n * 60n * 8766n) / 5n) / 10n ** 18n;
    node = await startNode(home);
    gateway = await startGateway(gatewayHome, node.rpcUrl);
  });

  after(async () => {
    await gateway?.proc.stop();
    await node?.proc.stop();
  });

  for (const mode of ["in-process (chain-rest start)", "remote (chain-rest gateway --node)"]) {
    describe(mode, () => {
      const get = (route: string, headers: Record<string, string> = {}) =>
        http(`${mode.startsWith("remote") ? gateway.restUrl : node.restUrl}${route}`, { headers: { accept: "application/json", ...headers } });

      it("serves an account as an Any with @type and its fields", async () => {
        const r = await get(`/core/auth/v1beta1/accounts/${addresses[3]}`);
        expect(r.status).to.equal(200);
        expect(r.body).to.deep.equal({
          account: { "@type": "/core.auth.v1beta1.BaseAccount", address: addresses[3], pub_key: null, account_number: "3", sequence: "0" },
        });
        expect(r.headers.get("content-type")).to.match(/^application\/json/);
        expect(Number(r.headers.get(HEIGHT))).to.be.greaterThan(0);
      });

      it("answers a missing account with 404 and code 5 (the real v0.41 answered 500)", async () => {
        const missing = bech32.encode("hub", bech32.toWords(new Uint8Array(20).fill(7)));
        const r = await get(`/core/auth/v1beta1/accounts/${missing}`);
        expect(r.status).to.equal(404);
        expect(r.body).to.deep.equal({ code: 5, message: `rpc error: code = NotFound desc = account ${missing} not found: key not found`, details: [] });
      });

      it("serves auth and bank params", async () => {
        expect((await get("/core/auth/v1beta1/params")).body).to.deep.equal({
          params: {
            max_memo_characters: "256",
            tx_sig_limit: "7",
            tx_size_cost_per_byte: "10",
            sig_verify_cost_ed25519: "590",
            sig_verify_cost_secp256k1: "1000",
          },
        });
        expect((await get("/core/bank/v1beta1/params")).body).to.deep.equal({ params: { send_enabled: [], default_send_enabled: true } });
      });

      it("serves all balances of an account, sorted by denom, with the pagination of a complete page", async () => {
        const r = await get(`/core/bank/v1beta1/balances/${addresses[0]}`);
        expect(r.status).to.equal(200);
        const expected = genesisBalances.get(addresses[0]!)!;
        expect(expected.map((c) => c.denom)).to.include.members(["ubronze", "ugold", "uhub", "usilver"]);
        expect(r.body).to.deep.equal({ balances: expected, pagination: { next_key: null, total: String(expected.length) } });
      });

      it("serves the balance of one denom: 0 for a denom the chain has no supply of (as v0.41), 400 for a malformed one", async () => {
        expect((await get(`/core/bank/v1beta1/balances/${addresses[1]}/uhub`)).body).to.deep.equal({ balance: { denom: "uhub", amount: "1000000000000" } });
        expect((await get(`/core/bank/v1beta1/balances/${addresses[1]}/ugold`)).body).to.deep.equal({ balance: { denom: "ugold", amount: "0" } });
        const none = await get(`/core/bank/v1beta1/balances/${addresses[1]}/unothing`);
        expect(none.status, none.text).to.equal(200);
        expect(none.body).to.deep.equal({ balance: { denom: "unothing", amount: "0" } });
        const supply = await get(`/core/bank/v1beta1/supply/unothing`);
        expect(supply.status, supply.text).to.equal(200);
        expect(supply.body).to.deep.equal({ amount: { denom: "unothing", amount: "0" } });
        const malformed = await get(`/core/bank/v1beta1/balances/${addresses[1]}/1bad`);
        expect(malformed.status, malformed.text).to.equal(400);
        // a parameter given twice takes its first value, as the real gateway
        const twice = await get(`/core/bank/v1beta1/balances/${addresses[1]}?pagination.limit=1&pagination.limit=20`);
        expect(twice.status, twice.text).to.equal(200);
        expect(twice.body.balances).to.have.length(1);
      });

      it("serves the total supply and the supply of one denom", async () => {
        // the genesis supply, plus the inflation each block since the first has minted
        const answer = await get("/core/bank/v1beta1/supply");
        const height = answer.headers.get(HEIGHT)!;
        const minted = BigInt(Number(height) - 1) * mintedPerBlock;
        const supply = genesisSupply.map((c) => (c.denom === "uhub" ? { denom: "uhub", amount: (BigInt(c.amount) + minted).toString() } : c));
        expect(answer.body).to.deep.equal({ supply });
        const uhub = supply.find((c) => c.denom === "uhub")!;
        expect(BigInt(uhub.amount) >= BigInt(ACCOUNTS) * 1_000_000_000_000n).to.equal(true);
        expect((await get("/core/bank/v1beta1/supply/uhub", { "x-cosmos-block-height": height })).body).to.deep.equal({ amount: uhub });
        // v0.41: a denom without supply is 0, not an error (wallets ask every denom of their registry)
        expect((await get("/core/bank/v1beta1/supply/unothing")).body).to.deep.equal({ amount: { denom: "unothing", amount: "0" } });
      });

      it("serves denom metadata, listed and by denom", async () => {
        const uhub = {
          description: "The native token of devnet-1",
          denom_units: [
            { denom: "uhub", exponent: 0, aliases: ["microhub"] },
            { denom: "mhub", exponent: 3, aliases: ["millihub"] },
            { denom: "hub", exponent: 6, aliases: [] },
          ],
          base: "uhub",
          display: "hub",
        };
        // the dev genesis gives every denom it creates metadata, listed in denom order
        const listed = (await get("/core/bank/v1beta1/denoms_metadata")).body;
        const supply = (await get("/core/bank/v1beta1/supply")).body.supply as Array<{ denom: string }>;
        expect(listed.metadatas.map((m: { base: string }) => m.base)).to.deep.equal(supply.map((c) => c.denom).sort());
        expect(listed.metadatas.find((m: { base: string }) => m.base === "uhub")).to.deep.equal(uhub);
        expect((await get("/core/bank/v1beta1/denoms_metadata/uhub")).body).to.deep.equal({ metadata: uhub });
        expect((await get("/core/bank/v1beta1/denoms_metadata/ugold")).body.metadata).to.include({ base: "ugold", display: "gold" });
        const missing = await get("/core/bank/v1beta1/denoms_metadata/unothing");
        expect(missing.status).to.equal(404);
        expect(missing.body.message).to.equal("rpc error: code = NotFound desc = client metadata for denom unothing: key not found");
      });

      it("walks all accounts with limit and next_key", async () => {
        const seen: string[] = [];
        let key: string | null = null;
        let pages = 0;
        do {
          const query: string = `pagination.limit=100${key ? `&pagination.key=${encodeURIComponent(key)}` : ""}`;
          const r: HttpAnswer = await get(`/core/auth/v1beta1/accounts?${query}`);
          expect(r.status).to.equal(200);
          expect(r.body.pagination.total).to.equal("0"); // never counted in key mode
          seen.push(...r.body.accounts.map((a: { address?: string; base_account?: { address: string } }) => a.address ?? a.base_account!.address));
          key = r.body.pagination.next_key;
          pages++;
        } while (key);
        expect(pages).to.equal(Math.ceil(genesisAccounts / 100));
        expect(seen).to.have.length(genesisAccounts); // the dev accounts and the module accounts
        expect(new Set(seen).size).to.equal(seen.length);
        expect(seen).to.include.members(addresses);
      });

      it("walks all accounts with offset and count_total", async () => {
        const seen: string[] = [];
        for (let offset = 0; offset < genesisAccounts; offset += 100) {
          const r = await get(`/core/auth/v1beta1/accounts?pagination.offset=${offset}&pagination.limit=100&pagination.count_total=true`);
          expect(r.body.pagination.total).to.equal(String(genesisAccounts));
          expect(r.body.pagination.next_key === null).to.equal(offset + 100 >= genesisAccounts);
          seen.push(...r.body.accounts.map((a: { "@type": string }) => JSON.stringify(a)));
        }
        expect(new Set(seen).size).to.equal(genesisAccounts);
      });

      it("answers at the height of the x-cosmos-block-height header, and says which height it answered at", async () => {
        let latest = 0;
        while (latest < 3) {
          latest = Number((await get("/core/bank/v1beta1/params")).headers.get(HEIGHT));
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const atTwo = await get("/core/bank/v1beta1/supply/uhub", { "x-cosmos-block-height": "2" });
        expect(atTwo.status).to.equal(200);
        expect(atTwo.headers.get(HEIGHT)).to.equal("2");
        const latestAnswer = await get("/core/bank/v1beta1/supply/uhub");
        expect(Number(latestAnswer.headers.get(HEIGHT))).to.be.at.least(latest);
      });

      describe("bad input", () => {
        const expectError = (r: HttpAnswer, status: number, code: number, includes: string, detailReasons: string[] = []) => {
          expect(r.status, r.text).to.equal(status);
          expect(r.body.code).to.equal(code);
          expect(r.body.message).to.include(includes);
          expect((r.body.details as Array<{ reason?: string }>).map((detail) => detail.reason)).to.deep.equal(detailReasons);
          expect(r.text).not.to.match(/\n\s+at /); // no stack trace
        };

        it("400 for an address with another prefix, naming the parameter", async () => {
          const other = bech32.encode("other", bech32.toWords(new Uint8Array(20)));
          expectError(await get(`/core/bank/v1beta1/balances/${other}`), 400, 3, "invalid address");
          expectError(await get(`/core/bank/v1beta1/balances/${other}`), 400, 3, "expected hub, got other");
        });

        it("400 for an address with a bad checksum", async () => {
          const broken = addresses[0]!.slice(0, -1) + (addresses[0]!.endsWith("q") ? "p" : "q");
          expectError(await get(`/core/auth/v1beta1/accounts/${broken}`), 400, 3, "invalid address");
          expectError(await get(`/core/auth/v1beta1/accounts/${broken}`), 400, 3, "checksum");
        });

        it("400 for pagination.limit=abc", async () => {
          expectError(await get(`/core/bank/v1beta1/balances/${addresses[0]}?pagination.limit=abc`), 400, 3, 'pagination.limit: "abc" is not a valid uint64');
        });

        it("400 for both pagination.key and pagination.offset", async () => {
          expectError(
            await get(`/core/auth/v1beta1/accounts?pagination.key=AQ%3D%3D&pagination.offset=2`),
            400,
            3,
            "either offset or key is expected, got both",
          );
        });

        it("400 for a negative, a non-numeric and a too high height header", async () => {
          expectError(await get("/core/bank/v1beta1/params", { "x-cosmos-block-height": "-1" }), 400, 3, "cannot be negative");
          expectError(await get("/core/bank/v1beta1/params", { "x-cosmos-block-height": "abc" }), 400, 3, "x-cosmos-block-height");
          expectError(await get("/core/bank/v1beta1/params", { "x-cosmos-block-height": "999999999" }), 400, 3, "cannot query at height 999999999", [
            "HEIGHT_NOT_AVAILABLE",
          ]);
        });

        it("501 Not Implemented for an unknown path or a wrong verb, as the real gateway", async () => {
          const base = mode.startsWith("remote") ? gateway.restUrl : node.restUrl;
          for (const r of [await get("/core/bank/v1beta1/nothing"), await http(`${base}/core/bank/v1beta1/params`, { method: "POST" })]) {
            expect(r.status).to.equal(501);
            expect(r.body).to.deep.equal({ code: 12, message: "Not Implemented", details: [] });
          }
        });

        it("ignores unknown query parameters", async () => {
          expect((await get("/core/bank/v1beta1/params?height=1&foo=bar")).status).to.equal(200);
        });
      });
    });
  }

  it("the gateway answers byte for byte as the in-process server: successes, query failures and refused requests", async () => {
    const missing = bech32.encode("hub", bech32.toWords(new Uint8Array(20).fill(9)));
    const requests: Array<[string, Record<string, string>]> = [
      [`/core/bank/v1beta1/balances/${addresses[1]}`, { "x-cosmos-block-height": "2" }],
      [`/core/auth/v1beta1/accounts/${addresses[2]}`, { "x-cosmos-block-height": "2" }],
      [`/core/auth/v1beta1/accounts/${missing}`, { "x-cosmos-block-height": "2" }],
      ["/core/bank/v1beta1/params", { "x-cosmos-block-height": "2" }],
      ["/core/bank/v1beta1/balances/notanaddress", {}],
      ["/core/bank/v1beta1/params", { "x-cosmos-block-height": "99999999" }],
      ["/core/nothing/here", {}],
    ];
    // Some answers name the latest height ("keeps heights 1 to N"): a pair is compared only when no
    // block was committed while it was asked (a block between the two asks is retried, at most 5 times).
    const latestHeight = async () => {
      const status = await http(node.rpcUrl, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "dev_chain_status", params: {} }) });
      return String(status.body.result.latest_block_height);
    };
    const askBoth = async (route: string, headers: Record<string, string>) => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const before = await latestHeight();
        const pair = await Promise.all([http(`${node.restUrl}${route}`, { headers }), http(`${gateway.restUrl}${route}`, { headers })]);
        if ((await latestHeight()) === before) return pair;
      }
      throw new Error(`${route}: a block was committed during each of 5 asks`);
    };
    for (const [route, headers] of requests) {
      const [inProcess, remote] = await askBoth(route, headers);
      const what = `${route} ${JSON.stringify(headers)}`;
      expect(remote.status, what).to.equal(inProcess.status);
      expect(remote.text, what).to.equal(inProcess.text);
      for (const header of ["content-type", HEIGHT]) expect(remote.headers.get(header), `${what} ${header}`).to.equal(inProcess.headers.get(header));
    }
  });

  it("the node's RPC answers abci_query over GET and POST with the engine's encodings", async () => {
    const post = await http(node.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "abci_query",
        params: { path: "/core.bank.v1beta1.Query/Params", data: "", height: "0", prove: false },
      }),
    });
    expect(post.status).to.equal(200);
    expect(post.body.id).to.equal(1);
    expect(post.body.result.response.value).to.be.a("string");
    expect(post.body.result.response.height).to.match(/^\d+$/);
    const get = await http(`${node.rpcUrl}/abci_query?path=%22/core.bank.v1beta1.Query/Params%22`);
    expect(get.body.id).to.equal(-1);
    expect(get.body.result.response.value).to.equal(post.body.result.response.value);
    const bad = await http(node.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "abci_query", params: { path: "/x", height: 5 } }),
    });
    expect(bad.body.error).to.deep.include({ code: -32602, message: "Invalid params" });
    const positional = await http(node.rpcUrl, {
      method: "POST",
      body: JSON.stringify({ jsonrpc: "2.0", id: "p", method: "abci_query", params: ["/core.bank.v1beta1.Query/Params", "", "0", false] }),
    });
    expect(positional.body.result.response.value).to.equal(post.body.result.response.value);
    const wrongCount = await http(node.rpcUrl, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "block", params: [] }) });
    expect(wrongCount.body.error.code).to.equal(-32602);
    const batch = await http(node.rpcUrl, {
      method: "POST",
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "health" },
        { jsonrpc: "2.0", id: 2, method: "nope" },
      ]),
    });
    expect(batch.body).to.deep.equal([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 2, error: { code: -32601, message: "Method not found" } },
    ]);
  });
});
