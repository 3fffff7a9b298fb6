/**
 * Summarises a V8 .cpuprofile (written by `node --cpu-prof`): self time by
 * function, the largest first, as shares of the busy (non-idle) time.
 *
 *   npx tsx bench/profileSummary.ts PROFILE.cpuprofile [top=25] [--by-package] [--skip-ms=N]
 *
 * --by-package adds self time up per npm package (or source folder) instead of per function.
 * --skip-ms=N leaves out the first N ms of the profile (the server's start, before the load).
 */
import fs from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const byPackage = args.includes("--by-package");
const skipUs = 1000 * Number(args.find((a) => a.startsWith("--skip-ms="))?.slice("--skip-ms=".length) ?? 0);
const [file, topArg] = args.filter((a) => !a.startsWith("--"));
if (!file) throw new Error("usage: profileSummary.ts PROFILE.cpuprofile [top]");
const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<string, number>();
let total = 0;
let idle = 0;
let elapsed = 0;
profile.samples.forEach((id, i) => {
  const node = byId.get(id)!;
  const dt = profile.timeDeltas[i] ?? 0;
  elapsed += dt;
  if (elapsed < skipUs) return;
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === "(idle)") {
    idle += dt;
    return;
  }
  total += dt;
  const where = url ? `${url.replace(/^.*\/(node_modules|src)\//, "$1/")}:${lineNumber + 1}` : "";
  const name = byPackage ? packageOf(url) : `${functionName || "(anonymous)"} ${where}`.trim();
  selfUs.set(name, (selfUs.get(name) ?? 0) + dt);
});
const top = [...selfUs.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 25));
console.log(`busy ${(total / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms`);
for (const [name, us] of top) console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`);

function packageOf(url: string): string {
  if (!url) return "(native, gc, program)";
  const pkg = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1]!;
  if (url.startsWith("node:")) return "node:internal";
  const src = url.match(/\/(src|dist)\/([^/]+)\//);
  return src ? `chain-rest ${src[2]}/` : url;
}
