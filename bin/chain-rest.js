#!/usr/bin/env -S node --min-semi-space-size=8 --max-semi-space-size=8
// Runs the compiled JavaScript in dist/, which `npm ci` (the package's prepare step) and `npm run build` write:
// the bundle dist/bundle/cli.js (src/build/writeBundle.ts), or dist/cli.js's modules when the bundle is
// missing or older than them (a `tsc` alone after a build).
// The shebang's flags are the servers' fixed young generation (SERVER_NODE_FLAGS in src/util/nodeFlags.ts).
// They count only on node's own command line, and this script never runs itself again for them: every
// server is one process (plus its api.workers). `node bin/chain-rest.js start` without them runs with
// V8's own young generation (docs/guide/performance.md).
import { existsSync, statSync } from "node:fs";

const dist = (file) => new URL(`../dist/${file}`, import.meta.url);
if (!existsSync(dist("cli.js"))) {
  console.error("chain-rest: dist/ is missing; run `npm run build` (npm ci runs it too)");
  process.exit(1);
}
await import(dist(bundleIsCurrent() ? "bundle/cli.js" : "cli.js").href);

function bundleIsCurrent() {
  const bundled = statSync(dist("bundle/cli.js"), { throwIfNoEntry: false });
  return bundled !== undefined && bundled.mtimeMs >= statSync(dist("cli.js")).mtimeMs;
}
