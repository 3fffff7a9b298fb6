import { expect } from "chai";
import { loadRoutes } from "../../src/tables/compileRoutes.js";
import { TableError } from "../../src/tables/loadYamlTable.js";
import { ROUTES_FILE } from "../../src/commands/restServer.js";
import { tempDir, writeFile } from "../helpers/tempDir.js";
import { testCodec } from "../helpers/testCodec.js";

describe("route table compiler (routes.yaml)", () => {
  const root = testCodec().root;
  const dir = tempDir();
  let n = 0;
  const compile = (yamlText: string) => loadRoutes(writeFile(dir, `routes-${n++}.yaml`, yamlText), root);
  const rejects = (yamlText: string, message: string) => expect(() => compile(yamlText)).to.throw(TableError, message);

  it("compiles the project's routes.yaml", () => {
    const routes = loadRoutes(ROUTES_FILE, root);
    expect(routes.length).to.be.greaterThan(0);
    const balances = routes.find((r) => r.path === "/core/bank/v1beta1/balances/{address}")!;
    expect(balances.methodPath).to.equal("/core.bank.v1beta1.Query/AllBalances");
    expect(balances.requestType.name).to.equal("QueryAllBalancesRequest");
    expect(balances.responseType.name).to.equal("QueryAllBalancesResponse");
    expect(balances.pathBindings.map((b) => b.variable)).to.deep.equal(["address"]);
    expect(balances.tag).to.equal("bank");
  });

  it("rejects a table that is not a list", () => {
    rejects("get: /x\n", "the table must be a list of entries");
  });

  it("rejects an entry without a verb, naming the entry", () => {
    rejects("- method: core.bank.v1beta1.Query/Params\n", "entry 1 (no verb): an entry needs exactly one verb key (get or post)");
  });

  it("rejects an entry with two verbs", () => {
    rejects("- get: /a\n  post: /a\n  method: core.bank.v1beta1.Query/Params\n", "entry 1 (get /a): an entry needs exactly one verb key (get or post)");
  });

  it("rejects an unknown key, naming it", () => {
    rejects("- get: /a\n  method: core.bank.v1beta1.Query/Params\n  bodyy: '*'\n", 'entry 1 (get /a): key "bodyy": is not a known key');
  });

  it("rejects a missing method", () => {
    rejects("- get: /a\n", 'entry 1 (get /a): key "method": is required');
  });

  it("rejects a malformed method name", () => {
    rejects("- get: /a\n  method: Params\n", 'entry 1 (get /a): key "method": "Params" must match pattern');
  });

  it("rejects a malformed path", () => {
    rejects("- get: a/b\n  method: core.bank.v1beta1.Query/Params\n", 'entry 1 (get a/b): key "get": "a/b" must match pattern');
  });

  it('rejects a body other than "*"', () => {
    rejects("- post: /a\n  method: core.bank.v1beta1.Query/Params\n  body: tx\n", 'entry 1 (post /a): key "body": must be equal to constant');
  });

  it("rejects a service that does not exist", () => {
    rejects("- get: /a\n  method: core.nothing.v1.Query/Params\n", 'entry 1 (get /a): key "method": service core.nothing.v1.Query does not exist in proto/');
  });

  it("rejects a method the service does not have, listing the ones it has", () => {
    rejects(
      "- get: /a\n  method: core.bank.v1beta1.Query/Nope\n",
      'entry 1 (get /a): key "method": core.bank.v1beta1.Query has no method Nope (it has: Balance, AllBalances',
    );
  });

  it("rejects a path variable that names no request field", () => {
    rejects(
      "- get: /balances/{adress}\n  method: core.bank.v1beta1.Query/AllBalances\n",
      'entry 1 (get /balances/{adress}): key "get": path variable {adress} names no field of core.bank.v1beta1.QueryAllBalancesRequest (its fields: address, pagination)',
    );
  });

  it("rejects a body on a GET route", () => {
    rejects("- get: /a\n  method: core.bank.v1beta1.Query/Params\n  body: '*'\n", 'entry 1 (get /a): key "body": only POST routes take a body');
  });

  it("rejects a pattern for a variable the path does not have", () => {
    rejects(
      "- get: /a/{denom}\n  method: core.bank.v1beta1.Query/SupplyOf\n  match: { deno: x }\n",
      'entry 1 (get /a/{denom}): key "match.deno": the path has no variable {deno}',
    );
  });

  it("rejects a pattern that is not a regular expression", () => {
    rejects("- get: /a/{denom}\n  method: core.bank.v1beta1.Query/SupplyOf\n  match: { denom: '[' }\n", 'key "match.denom": not a regular expression');
  });

  it("rejects two routes of the same verb that can match the same path", () => {
    rejects(
      ["- get: /b/{address}/{denom}", "  method: core.bank.v1beta1.Query/Balance", "- get: /b/{denom}/x", "  method: core.bank.v1beta1.Query/SupplyOf"].join(
        "\n",
      ),
      "entry 1 (get /b/{address}/{denom}) and entry 2 (get /b/{denom}/x) can match the same path (e.g. /b/{address}/x); tell them apart",
    );
  });

  it("rejects an exact duplicate", () => {
    rejects("- get: /p\n  method: core.bank.v1beta1.Query/Params\n- get: /p\n  method: core.auth.v1beta1.Query/Params\n", "can match the same path (e.g. /p)");
  });

  it("accepts routes of the same shape told apart by match and reject patterns", () => {
    const routes = compile(
      [
        "- get: /r/{address}/{denom}",
        "  method: core.bank.v1beta1.Query/Balance",
        "  match: { denom: '[0-9]+' }",
        "- get: /r/{denom}/{address}",
        "  method: core.bank.v1beta1.Query/Balance",
        "  reject: { address: '[0-9]+' }",
      ].join("\n"),
    );
    expect(routes).to.have.length(2);
  });

  it("accepts the same path under two verbs, and a literal a pattern excludes", () => {
    const routes = compile(
      [
        "- get: /s/{denom}",
        "  method: core.bank.v1beta1.Query/SupplyOf",
        "- post: /s/{denom}",
        "  method: core.bank.v1beta1.Query/SupplyOf",
        "- get: /t/latest",
        "  method: core.bank.v1beta1.Query/Params",
        "- get: /t/{denom}",
        "  method: core.bank.v1beta1.Query/SupplyOf",
        "  reject: { denom: latest }",
      ].join("\n"),
    );
    expect(routes).to.have.length(4);
  });
});
