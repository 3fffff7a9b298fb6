#!/usr/bin/env -S node --min-semi-space-size=8 --max-semi-space-size=8
// Runs the compiled JavaScript in dist/, which `npm ci` (the package's prepare step) and `npm run build` write:
// the bundle dist/bundle/cli.js (src/build/writeBundle.ts), or dist/cli.js's modules when the bundle is
// missing or older than them (a `tsc` alone after a build).
// The shebang's flags are the servers' fixed young generation (SERVER_NODE_FLAGS in src/util/nodeFlags.ts);
// `node bin/chain-rest.js start` without them runs itself again with them (README "Memory").
import { existsSync, statSync } from "node:fs";

const dist = (file) => new URL(`../dist/${file}`, import.meta.url);
if (!existsSync(dist("cli.js"))) {
  console.error("chain-rest: dist/ is missing; run `npm run build` (npm ci runs it too)");
  process.exit(1);
}
const servers = ["start", "gateway"];
const { relaunchWithNodeFlags, SERVER_NODE_FLAGS } = await import(dist("util/nodeFlags.js").href);
const relaunched = servers.includes(process.argv[2]) ? relaunchWithNodeFlags(SERVER_NODE_FLAGS) : undefined;
if (relaunched) process.exitCode = await relaunched;
else await import(dist(bundleIsCurrent() ? "bundle/cli.js" : "cli.js").href);

function bundleIsCurrent() {
  const bundled = statSync(dist("bundle/cli.js"), { throwIfNoEntry: false });
  return bundled !== undefined && bundled.mtimeMs >= statSync(dist("cli.js")).mtimeMs;
}
