import { execFileSync } from "node:child_process";
import { expect } from "chai";
import { PACKAGE_ROOT } from "../../src/util/paths.js";

/**
 * returnFreedMemory (src/util/freedMemory.ts) in a process of its own: 100 MB of native memory in
 * 2 KiB buffers, one in fifty kept (so glibc cannot give the heap's top back by itself), the rest
 * collected. glibc keeps the freed memory resident until malloc_trim.
 */
const SCRIPT = `
import fs from "node:fs";
import { returnFreedMemory } from "./src/util/freedMemory.ts";
const anonMb = () => Number(/RssAnon:\\s+(\\d+)/.exec(fs.readFileSync("/proc/self/status", "utf8"))[1]) / 1024;
const kept = [];
let all = [];
for (let i = 0; i < 50_000; i++) {
  const buffer = Buffer.alloc(2048, 1);
  all.push(buffer);
  if (i % 50 === 0) kept.push(buffer);
}
all = undefined;
globalThis.gc();
await new Promise((resolve) => setImmediate(resolve)); // the buffers' contents are freed after the collection
globalThis.gc();
const collected = anonMb();
const trimmed = await returnFreedMemory();
console.log(JSON.stringify({ collected, trimmed, after: anonMb(), kept: kept.length }));
`;

describe("freed native memory given back to the system (malloc_trim)", function () {
  this.timeout(30_000);

  it("gives back what dead buffers left in glibc's heap, and keeps what is in use", function () {
    const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", SCRIPT], {
      cwd: PACKAGE_ROOT,
      encoding: "utf8",
    });
    const { collected, trimmed, after, kept } = JSON.parse(out) as { collected: number; trimmed?: boolean; after: number; kept: number };
    if (trimmed === undefined) this.skip(); // no glibc here (musl, macOS): nothing to give back this way
    expect(kept).to.equal(1000);
    expect(trimmed).to.equal(true);
    // ~98 MB of the 100 were freed; before the trim they were still resident
    expect(collected - after, `RssAnon ${collected.toFixed(1)} → ${after.toFixed(1)} MB`).to.be.greaterThan(60);
  });
});
