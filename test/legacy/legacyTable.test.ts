import { expect } from "chai";
import { loadLegacyRoutes } from "../../src/tables/compileLegacyRoutes.js";
import { TableError } from "../../src/tables/loadYamlTable.js";
import type { QueryHandler } from "../../src/tables/legacyRouteSpec.js";
import { aminoTransforms } from "../../src/tables/aminoTransforms.js";
import { LEGACY_ROUTES_FILE } from "../../src/commands/restServer.js";
import { tempDir, writeFile } from "../helpers/tempDir.js";
import { testCodec } from "../helpers/testCodec.js";

const PARAMS = "core.bank.v1beta1.Query/Params";

/** Every kind of mistake legacy-routes.yaml can hold, each with the message that names file, entry and key. */
describe("legacy route table (legacy-routes.yaml)", () => {
  const root = testCodec().root;
  const transforms = aminoTransforms();
  const dir = tempDir();
  let n = 0;
  const compile = (yamlText: string) => loadLegacyRoutes(writeFile(dir, `${n++}/legacy-routes.yaml`, yamlText), root, transforms);
  const rejects = (yamlText: string, message: string) => expect(() => compile(yamlText)).to.throw(TableError, message);
  const entry = (lines: string) => `- get: /a\n  envelope: height\n${lines}`;

  it("compiles the project's legacy-routes.yaml", () => {
    const routes = loadLegacyRoutes(LEGACY_ROUTES_FILE, root, transforms);
    expect(routes.length).to.be.greaterThan(100);
    const validators = routes.find((r) => r.path === "/staking/validators")!;
    expect(validators.handlers[0]!.handler.kind).to.equal("query");
    expect(validators.params.query.get("status")!.default).to.equal("BOND_STATUS_BONDED");
    expect(validators.deprecationHeaders).to.equal(true);
    expect(routes.find((r) => r.path === "/node_info")!.deprecationHeaders).to.equal(false);
    expect(routes.find((r) => r.path === "/gov/proposals/{proposal-id}")!.variables).to.deep.equal(["proposal-id"]);
  });

  describe("JSON Schema errors", () => {
    it("a table that is not a list", () => rejects("get: /x\n", "legacy-routes.yaml: the table must be a list of entries"));
    it("an entry without a verb", () =>
      rejects(`- method: ${PARAMS}\n  envelope: bare\n`, "entry 1 (no verb): an entry needs exactly one verb key (get, post or put)"));
    it("an entry with two verbs", () =>
      rejects(`- get: /a\n  put: /a\n  method: ${PARAMS}\n  envelope: bare\n`, "entry 1 (get /a): an entry needs exactly one verb key (get, post or put)"));
    it("an unknown key", () => rejects(entry(`  method: ${PARAMS}\n  resultt: params\n`), 'entry 1 (get /a): key "resultt": is not a known key'));
    it("a missing envelope", () => rejects(`- get: /a\n  method: ${PARAMS}\n`, 'entry 1 (get /a): key "envelope": is required'));
    it("an envelope that is neither height nor bare", () =>
      rejects(`- get: /a\n  method: ${PARAMS}\n  envelope: wrapped\n`, 'entry 1 (get /a): key "envelope": must be equal to one of the allowed values'));
    it("a malformed path", () =>
      rejects(`- get: a/{b c}\n  method: ${PARAMS}\n  envelope: bare\n`, 'entry 1 (get a/{b c}): key "get": "a/{b c}" must match pattern'));
    it("a malformed method", () => rejects(entry("  method: Params\n"), 'entry 1 (get /a): key "method": "Params" must match pattern'));
    it("a malformed result path", () => rejects(entry(`  method: ${PARAMS}\n  result: 'a b'\n`), 'entry 1 (get /a): key "result": "a b" must match pattern'));
    it("a request field path that is malformed", () => rejects(entry(`  method: ${PARAMS}\n  request: { 'a-b': x }\n`), 'entry 1 (get /a): key "request.a-b"'));
    it("an unknown action", () =>
      rejects("- post: /a\n  envelope: bare\n  action: sign-tx\n", 'entry 1 (post /a): key "action": must be equal to one of the allowed values'));
    it("a broadcast mode that is not a tx service mode", () =>
      rejects(
        "- post: /a\n  envelope: bare\n  action: broadcast-std-tx\n  modes: { block: COMMIT }\n",
        'entry 1 (post /a): key "modes.block": must be equal to one of the allowed values',
      ));
    it("a height flag that is not a boolean", () =>
      rejects(entry(`  method: ${PARAMS}\n  height: no-thanks\n`), 'entry 1 (get /a): key "height": must be boolean'));
    it("paging with a default limit below 1", () =>
      rejects(entry(`  method: ${PARAMS}\n  paging: { default_limit: 0 }\n`), 'entry 1 (get /a): key "paging.default_limit": must be >= 1'));
    it("paging over something other than the result", () =>
      rejects(entry(`  method: ${PARAMS}\n  paging: { of: request }\n`), 'entry 1 (get /a): key "paging.of": must be equal to constant'));
    it("a parameter with an unknown key", () =>
      rejects(entry(`  method: ${PARAMS}\n  query: { x: { kind: hex } }\n`), 'entry 1 (get /a): key "query.x.kind": is not a known key'));
    it("a parameter format that is not known", () =>
      rejects(
        entry(`  method: ${PARAMS}\n  query: { x: { format: date } }\n`),
        'entry 1 (get /a): key "query.x.format": must be equal to one of the allowed values',
      ));
    it("a refuse rule without its message", () =>
      rejects(entry(`  method: ${PARAMS}\n  query: { x: { refuse: { match: a } } }\n`), 'entry 1 (get /a): key "query.x.refuse.error": is required'));
    it("a call that is both a method and a search", () =>
      rejects(
        entry(`  calls: { c: { method: ${PARAMS}, search: { events: [a], msg: b } } }\n  result: { x: $calls.c }\n`),
        'entry 1 (get /a): key "calls.c": needs exactly one of method, search',
      ));
    it("a call name that is not lower case", () =>
      rejects(entry(`  calls: { C: { method: ${PARAMS} } }\n  result: { x: $calls.C }\n`), 'entry 1 (get /a): key "calls.C": is not a valid name'));
    it("a Msg without its amino type", () =>
      rejects("- post: /a\n  envelope: bare\n  generate: { msgs: [{ value: {} }] }\n", 'entry 1 (post /a): key "generate.msgs.0.type": is required'));
    it("a Msg type that is not an amino name", () =>
      rejects(
        "- post: /a\n  envelope: bare\n  generate: { msgs: [{ type: MsgSend, value: {} }] }\n",
        'entry 1 (post /a): key "generate.msgs.0.type": "MsgSend" must match pattern',
      ));
    it("a generate entry without Msgs", () =>
      rejects("- post: /a\n  envelope: bare\n  generate: { msgs: [] }\n", 'entry 1 (post /a): key "generate.msgs": must NOT have fewer than 1 items'));
    it("a check that is neither same_address nor matches", () =>
      rejects(
        "- post: /a\n  envelope: bare\n  generate: { msgs: [{ type: core-sdk/MsgSend, value: {} }], checks: [{ status: 401, error: x }] }\n",
        'entry 1 (post /a): key "generate.checks.0": needs exactly one of same_address, matches',
      ));
    it("a check status outside 400-599", () =>
      rejects(
        "- post: /a\n  envelope: bare\n  generate: { msgs: [{ type: core-sdk/MsgSend, value: {} }], checks: [{ matches: [$body.x, y], status: 200, error: x }] }\n",
        'entry 1 (post /a): key "generate.checks.0.status": must be >= 400',
      ));
    it("an error rule with neither when nor match", () =>
      rejects(entry(`  method: ${PARAMS}\n  errors: [{ status: 404 }]\n`), 'entry 1 (get /a): key "errors.0": needs exactly one of when, match'));
    it("an error rule for an unknown kind of failure", () =>
      rejects(
        entry(`  method: ${PARAMS}\n  errors: [{ when: timeout, status: 504 }]\n`),
        'entry 1 (get /a): key "errors.0.when": must be equal to one of the allowed values',
      ));
    it("a fixed answer without its message", () => rejects(entry("  answer: { status: 404 }\n"), 'entry 1 (get /a): key "answer.error": is required'));
    it("a variant without its condition", () =>
      rejects(entry(`  method: ${PARAMS}\n  variants: [{ method: ${PARAMS} }]\n`), 'entry 1 (get /a): key "variants.0.when": is required'));
    it("a variant condition on two things", () =>
      rejects(
        entry(`  method: ${PARAMS}\n  variants: [{ when: { query: a, path: { b: c } }, method: ${PARAMS} }]\n`),
        'entry 1 (get /a): key "variants.0.when": must NOT have more than 1 properties',
      ));
    it("a deprecation flag that is not a boolean", () =>
      rejects(entry(`  method: ${PARAMS}\n  deprecation_headers: sometimes\n`), 'entry 1 (get /a): key "deprecation_headers": must be boolean'));
  });

  describe("errors found by compiling against the proto tree and the amino names", () => {
    it("no way of answering, or two", () => {
      rejects(entry(""), "entry 1 (get /a): an entry needs exactly one of method, calls, generate, action, answer");
      rejects(
        entry(`  method: ${PARAMS}\n  answer: { status: 404, error: x }\n`),
        "an entry needs exactly one of method, calls, generate, action, answer (it has method, answer)",
      );
    });
    it("a service that does not exist", () =>
      rejects(entry("  method: core.nothing.v1.Query/Params\n"), 'entry 1 (get /a): key "method": service core.nothing.v1.Query does not exist in proto/'));
    it("a method the service does not have", () =>
      rejects(entry("  method: core.bank.v1beta1.Query/Nothing\n"), 'key "method": core.bank.v1beta1.Query has no method Nothing (it has: Balance'));
    it("a request field that does not exist", () =>
      rejects(
        entry(`  method: ${PARAMS}\n  request: { denom: x }\n`),
        'entry 1 (get /a): key "request.denom": denom is not a field of core.bank.v1beta1.QueryParamsRequest',
      ));
    it("a result field that does not exist", () =>
      rejects(
        entry(`  method: ${PARAMS}\n  result: balances\n`),
        'entry 1 (get /a): key "result": balances is not a field of core.bank.v1beta1.QueryParamsResponse (its fields: params)',
      ));
    it("a reference to a path variable the path does not have", () =>
      rejects(
        entry("  method: core.bank.v1beta1.Query/Balance\n  request: { address: $path.address }\n"),
        'entry 1 (get /a): key "request.address": the path has no variable {address} (it has: none)',
      ));
    it("a reference that is malformed, or to a source not allowed there, or with an unknown pipe", () => {
      rejects(entry("  method: core.bank.v1beta1.Query/Balance\n  request: { address: '$path' }\n"), 'key "request.address": $path needs a name: $path.<name>');
      rejects(
        entry("  method: core.bank.v1beta1.Query/Balance\n  request: { address: $body.address }\n"),
        'key "request.address": $body cannot be used here (allowed: $path, $query)',
      );
      rejects(entry("  method: core.bank.v1beta1.Query/Balance\n  request: { address: $query.a | shout }\n"), 'key "request.address": unknown pipe "shout"');
      rejects(
        entry("  method: core.bank.v1beta1.Query/Balance\n  request: { address: '$query.a |' }\n"),
        'key "request.address": "$query.a |" is not a reference',
      );
    });
    it("a result template naming a call that does not exist", () =>
      rejects(entry(`  calls: { c: { method: ${PARAMS} } }\n  result: { x: $calls.d.params }\n`), 'key "result.x": no call is named d (calls: c)'));
    it("a calls entry whose result is not a template", () =>
      rejects(entry(`  calls: { c: { method: ${PARAMS} } }\n  result: params\n`), 'key "result": a calls entry answers an object template over $calls'));
    it("a search for a Msg type that does not exist", () =>
      rejects(
        entry("  calls: { c: { search: { events: [a], msg: core.Nothing } } }\n  result: { x: $calls.c }\n"),
        'key "calls.c.search.msg": core.Nothing is not a message type of proto/',
      ));
    it("a fallback search read as a type without the Msg's fields, or matching a field the Msg lacks", () => {
      const fallback = (search: string) =>
        entry(
          `  method: core.gov.v1beta1.Query/Votes\n  request: { proposal_id: "1" }\n  result: votes\n  fallback: { search: { events: [a], msg: core.gov.v1beta1.MsgVote, ${search} } }\n`,
        );
      rejects(
        fallback("as: core.gov.v1beta1.Deposit"),
        'key "fallback.search.as": core.gov.v1beta1.Deposit does not have core.gov.v1beta1.MsgVote\'s field voter = 2',
      );
      rejects(fallback("match: { depositor: x }"), 'key "fallback.search.match.depositor": depositor is not a field of core.gov.v1beta1.MsgVote');
      const handler = compile(fallback("as: core.gov.v1beta1.Vote, all: true"))[0]!.handlers[0]!.handler as QueryHandler;
      expect([handler.fallback?.search.as?.fullName, handler.fallback?.search.all, handler.fallback?.onError]).to.deep.equal([
        ".core.gov.v1beta1.Vote",
        true,
        undefined,
      ]);
      rejects(
        `- post: /a\n  envelope: bare\n  action: encode-std-tx\n  fallback: { search: { events: [a], msg: core.gov.v1beta1.MsgVote } }\n`,
        'key "fallback": does not apply to action encode-std-tx',
      );
    });
    it("a Msg type that amino-transforms.yaml does not name", () =>
      rejects(
        "- post: /a\n  envelope: bare\n  generate: { msgs: [{ type: core-sdk/MsgNothing, value: {} }] }\n",
        'key "generate.msgs[0].type": core-sdk/MsgNothing is not an amino name of amino-transforms.yaml',
      ));
    it("a GET route that builds a transaction, a POST route that queries", () => {
      rejects(
        "- get: /a\n  envelope: bare\n  generate: { msgs: [{ type: core-sdk/MsgSend, value: {} }] }\n",
        'key "generate": only POST and PUT routes build transactions',
      );
      rejects(
        `- post: /a\n  envelope: bare\n  method: ${PARAMS}\n`,
        'key "method": a POST or PUT route builds a transaction (generate) or is a transaction action',
      );
    });
    it("keys that do not apply to the way the entry answers", () => {
      rejects(`- post: /a\n  envelope: bare\n  action: encode-std-tx\n  result: x\n`, 'key "result": does not apply to action encode-std-tx');
      rejects(
        `- post: /a\n  envelope: bare\n  action: encode-std-tx\n  modes: { block: BROADCAST_MODE_BLOCK }\n`,
        'key "modes": only broadcast-std-tx takes modes',
      );
      rejects(
        "- get: /a\n  envelope: bare\n  action: search-txs\n  conditions: { a: b }\n",
        'key "conditions": search-txs needs a "*" condition for the other parameters',
      );
      rejects("- get: /a\n  envelope: bare\n  action: decode-tx\n", 'key "get": action decode-tx is a POST route');
      rejects("- post: /a\n  envelope: bare\n  action: broadcast-std-tx\n", "broadcast-std-tx needs modes");
    });
    it("search-txs-each without its searches, its searches on another action, a search naming a path variable the path lacks", () => {
      const each = "  each: { searches: { bond: [\"message.sender='{path.addr}'\"] }, select: type, otherwise: 204 }\n";
      rejects("- get: /a/{addr}\n  envelope: bare\n  action: search-txs-each\n", "entry 1 (get /a/{addr}): search-txs-each needs each");
      rejects(`- get: /a/{addr}\n  envelope: bare\n  action: search-txs\n  conditions: { "*": x }\n${each}`, 'key "each": only search-txs-each takes each');
      rejects(`- get: /a/{address}\n  envelope: bare\n  action: search-txs-each\n${each}`, 'key "each.searches.bond[0]": the path has no variable {addr}');
      const [route] = compile(`- get: /a/{addr}\n  envelope: bare\n  path: { addr: { format: account } }\n  action: search-txs-each\n${each}`);
      expect(route!.handlers[0]!.handler).to.deep.include({ kind: "search-txs-each", select: "type", otherwise: 204, limit: 30 });
      expect([...route!.params.query.keys()]).to.deep.equal(["type"]);
    });
    it("paging into a request without pagination", () =>
      rejects(
        entry(`  method: ${PARAMS}\n  paging: { default_limit: 5 }\n`),
        'key "paging": core.bank.v1beta1.QueryParamsRequest has no pagination; page the result instead (of: result)',
      ));
    it("checks of a path variable the path does not have; reject on a query parameter", () => {
      rejects(entry(`  method: ${PARAMS}\n  path: { x: { format: hex } }\n`), 'key "path.x": the path has no variable {x}');
      rejects(entry(`  method: ${PARAMS}\n  query: { x: { reject: a } }\n`), 'key "query.x.reject": only path variables take reject');
    });
    it("a pattern that is not a regular expression", () =>
      rejects(entry(`  method: ${PARAMS}\n  query: { x: { refuse: { match: '(', error: e } } }\n`), 'key "query.x.refuse.match": not a regular expression'));
    it("an error rule with both a result and a status", () =>
      rejects(
        entry(`  method: ${PARAMS}\n  errors: [{ when: not-found, status: 404, result: [] }]\n`),
        'key "errors[0].result": a rule answers either a result (200) or a status',
      ));
    it("two routes that can match the same path", () => {
      rejects(
        `- get: /a/{x}\n  envelope: bare\n  method: ${PARAMS}\n- get: /a/b\n  envelope: bare\n  method: ${PARAMS}\n`,
        'entry 1 (get /a/{x}) and entry 2 (get /a/b) can match the same path (e.g. /a/b); tell them apart with "reject" on a path variable',
      );
      expect(
        compile(`- get: /a/{x}\n  envelope: bare\n  path: { x: { reject: b } }\n  method: ${PARAMS}\n- get: /a/b\n  envelope: bare\n  method: ${PARAMS}\n`),
      ).to.have.length(2);
    });
  });
});
