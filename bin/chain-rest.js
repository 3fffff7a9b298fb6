#!/usr/bin/env -S node --min-semi-space-size=8 --max-semi-space-size=8
// Runs the compiled JavaScript in dist/, which `npm ci` (the package's prepare step) and `npm run build` write.
// The shebang's flags are the servers' fixed young generation (SERVER_NODE_FLAGS in src/util/nodeFlags.ts);
// `node bin/chain-rest.js start` without them runs itself again with them (README "Memory").
import { existsSync } from "node:fs";

const dist = (file) => new URL(`../dist/${file}`, import.meta.url);
if (!existsSync(dist("cli.js"))) {
  console.error("chain-rest: dist/ is missing; run `npm run build` (npm ci runs it too)");
  process.exit(1);
}
const servers = ["start", "gateway"];
const { relaunchWithNodeFlags, SERVER_NODE_FLAGS } = await import(dist("util/nodeFlags.js").href);
const relaunched = servers.includes(process.argv[2]) ? relaunchWithNodeFlags(SERVER_NODE_FLAGS) : undefined;
if (relaunched) process.exitCode = await relaunched;
else await import(dist("cli.js").href);
