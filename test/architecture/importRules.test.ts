import { expect } from "chai";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { PACKAGE_ROOT } from "../../src/util/paths.js";

/**
 * The import rules of .dependency-cruiser.cjs (layers, no cycles), checked by
 * dependency-cruiser over src/, and over a fixture tree that breaks each rule once.
 */
const DEPCRUISE = path.join(PACKAGE_ROOT, "tools", "lint", "node_modules", ".bin", "depcruise");
const CONFIG = path.join(PACKAGE_ROOT, ".dependency-cruiser.cjs");

interface Cruise {
  modules: Array<{ source: string }>;
  summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> };
}

async function cruise(cwd: string): Promise<Cruise> {
  // depcruise exits non-zero when it finds violations; its JSON report is on stdout either way
  const run = await promisify(execFile)(DEPCRUISE, ["src", "--config", CONFIG, "--output-type", "json"], { cwd, maxBuffer: 64 * 1024 * 1024 }).catch(
    (err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }),
  );
  return JSON.parse(run.stdout) as Cruise;
}

describe("import rules (dependency-cruiser)", function () {
  this.timeout(60_000);

  it("src/ keeps every rule, and every source file was cruised", async () => {
    const result = await cruise(PACKAGE_ROOT);
    const violations = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(violations, violations.join("\n")).to.deep.equal([]);
    const cruised = result.modules.filter((m) => m.source.startsWith("src/") && m.source.endsWith(".ts")).length;
    expect(cruised).to.be.at.least(250);
  });

  it("reports each rule's violation in a tree that breaks it", async () => {
    const result = await cruise(path.join(PACKAGE_ROOT, "test", "architecture", "fixture"));
    const rules = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    expect(rules).to.deep.equal([
      "gateway-not-to-legacy: src/gateway/usesLegacy.ts → src/legacy/legacyRoute.ts",
      "legacy-not-to-gateway: src/legacy/legacyRoute.ts → src/gateway/route.ts",
      "no-circular: src/util/first.ts → src/util/second.ts",
      "node-not-to-rest: src/node/store.ts → src/http/header.ts",
      "rest-not-to-node: src/gateway/route.ts → src/node/store.ts",
      "workers-fenced: src/commands/startsWorkers.ts → src/workers/channelClient.ts",
    ]);
  });
});
