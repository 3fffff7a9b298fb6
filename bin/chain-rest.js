#!/usr/bin/env node
// Runs the compiled JavaScript in dist/, which `npm ci` (the package's prepare step) and `npm run build` write.
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(cli)) {
  console.error("chain-rest: dist/ is missing; run `npm run build` (npm ci runs it too)");
  process.exit(1);
}
await import(cli.href);
