/**
 * What grew between two V8 heap snapshots (`node --heapsnapshot-signal=SIGUSR2`, then
 * `kill -USR2 <pid>` twice): object counts and self sizes by kind and constructor name,
 * the largest growths first.
 *
 *   npx tsx bench/heapSnapshotDiff.ts early.heapsnapshot late.heapsnapshot [--top N]
 */
import fs from "node:fs";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

interface Tally {
  count: number;
  bytes: number;
}

/** Counts and self sizes of a snapshot's nodes, keyed `kind name`. */
export function tallyByConstructor(file: string): Map<string, Tally> {
  const snap = JSON.parse(fs.readFileSync(file, "utf8")) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const kinds = snap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as [number, number, number];
  const tallies = new Map<string, Tally>();
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const kind = kinds[snap.nodes[i + typeAt]!]!;
    // strings and code are named by their text: group them by kind alone
    const name = kind === "object" || kind === "closure" || kind === "native" ? snap.strings[snap.nodes[i + nameAt]!]!.slice(0, 80) : "";
    const key = `${kind} ${name}`;
    const tally = tallies.get(key) ?? { count: 0, bytes: 0 };
    tally.count++;
    tally.bytes += snap.nodes[i + sizeAt]!;
    tallies.set(key, tally);
  }
  return tallies;
}

function main(argv: string[]): void {
  const [early, late] = argv;
  if (!early || !late) throw new Error("usage: heapSnapshotDiff.ts early.heapsnapshot late.heapsnapshot [--top N]");
  const top = argv.includes("--top") ? Number(argv[argv.indexOf("--top") + 1]) : 40;
  const before = tallyByConstructor(early);
  const after = tallyByConstructor(late);
  const rows = [...new Set([...before.keys(), ...after.keys()])].map((key) => {
    const a = before.get(key) ?? { count: 0, bytes: 0 };
    const b = after.get(key) ?? { count: 0, bytes: 0 };
    return { key, count: b.count - a.count, bytes: b.bytes - a.bytes, countAfter: b.count, bytesAfter: b.bytes };
  });
  const total = (t: Map<string, Tally>) => [...t.values()].reduce((s, x) => s + x.bytes, 0);
  console.log(`self size: ${(total(before) / 1e6).toFixed(1)} MB → ${(total(after) / 1e6).toFixed(1)} MB`);
  console.log("Δbytes\tΔcount\tbytes after\tcount after\tkind name");
  for (const r of rows.sort((x, y) => y.bytes - x.bytes).slice(0, top)) console.log(`${r.bytes}\t${r.count}\t${r.bytesAfter}\t${r.countAfter}\t${r.key}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
