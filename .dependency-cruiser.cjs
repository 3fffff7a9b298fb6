/**
 * The import rules of the source tree (checked by `npm run depcruise` and by
 * test/architecture/importRules.test.ts, so `npm test` fails on a violation).
 *
 *   REST side:  src/http (shared HTTP pieces), src/gateway and src/legacy (the two route
 *               families, siblings), src/openapi, src/methods (proto methods answered over ChainClient), src/server (composition, listen, start)
 *   node side:  src/node (the embedded node)
 *   shared:     src/codec, src/tables, src/config, src/client, src/util, src/commands, src/cli.ts
 *
 * The REST side and the node meet only at the ChainClient interface (src/client) and share codec/.
 * src/workers is fenced: the rest of src/ uses only its entry points (WORKER_ENTRY_POINTS).
 */
const REST = "^src/(http|gateway|legacy|openapi|methods|server)/";
// What src/workers offers the rest of src/ (src/workers/README.md): starting the workers, the
// node's side of their calls, the messages' types and the bundle's worker entry.
const WORKER_ENTRY_POINTS = "^src/workers/(restWorkers|nodeCalls|messages|restWorkerEntry)[.]ts$";

module.exports = {
  forbidden: [
    {
      name: "rest-not-to-node",
      comment: "The REST side reaches the chain only through ChainClient: it never imports the embedded node.",
      severity: "error",
      from: { path: REST },
      to: { path: "^src/node/" },
    },
    {
      name: "node-not-to-rest",
      comment: "The embedded node imports nothing of the REST side.",
      severity: "error",
      from: { path: "^src/node/" },
      to: { path: REST },
    },
    {
      name: "gateway-not-to-legacy",
      comment: "The two route families are siblings over src/http; only src/server composes them.",
      severity: "error",
      from: { path: "^src/gateway/" },
      to: { path: "^src/legacy/" },
    },
    {
      name: "legacy-not-to-gateway",
      comment: "The two route families are siblings over src/http; only src/server composes them.",
      severity: "error",
      from: { path: "^src/legacy/" },
      to: { path: "^src/gateway/" },
    },
    {
      name: "workers-fenced",
      comment:
        "The workers' channel, batching and replica reads are internals of src/workers: other folders import only its entry points, so the state design can change behind them.",
      severity: "error",
      from: { pathNot: "^src/workers/" },
      to: { path: "^src/workers/", pathNot: WORKER_ENTRY_POINTS },
    },
    {
      name: "no-circular",
      comment: "No import cycles, type-only imports included.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // type-only imports count: a cycle through types is still a cycle a reader must untangle
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".json"] },
  },
};
