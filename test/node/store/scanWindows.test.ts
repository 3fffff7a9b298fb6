import { expect } from "chai";
import { ScanWindows } from "../../../src/node/store/scanWindows.js";
import { compareBytes } from "../../../src/node/store/keyEncoding.js";

type Entry = [Uint8Array, Uint8Array];

/** A small deterministic generator (seeded), so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

const key = (n: number) => Uint8Array.of(n >> 8, n & 0xff);

describe("ScanWindows (kept reads of the latest state)", () => {
  for (const [seed, writes] of [
    [1, false],
    [2, false],
    [3, false],
    [4, false],
    [5, true],
    [6, true],
    [7, true],
  ] as const) {
    it(`answers every range exactly as a scan would, or not at all (seed ${seed}${writes ? ", commits writing between the scans" : ""})`, () => {
      const next = random(seed);
      const keys = [...new Set([...Array(400)].map(() => Math.floor(next() * 2000)))].sort((a, b) => a - b);
      let all: Entry[] = keys.map((k) => [key(k), Uint8Array.of(k & 0xff)]);
      const scan = (lower: Uint8Array, upper: Uint8Array) => all.filter(([k]) => compareBytes(k, lower) >= 0 && compareBytes(k, upper) < 0);
      // As a fill reads (latestScans.ts): up to `page` entries of [low, end), end being where the next kept range begins.
      const read = (low: Uint8Array, end: Uint8Array | undefined, page: number) =>
        all.filter(([k]) => compareBytes(k, low) >= 0 && (!end || compareBytes(k, end) < 0)).slice(0, page);
      const after = (k: Uint8Array) => Uint8Array.of(...k, 0);
      const windows = new ScanWindows(40 * 200); // room for about 40 entries: evictions happen
      let answered = 0;
      for (let i = 0; i < 3000; i++) {
        if (writes && next() < 0.3) {
          // as a commit's write reaches the kept reads (latestScans.ts): set or delete one key, kept or not
          const k = key(Math.floor(next() * 2100));
          const value = next() < 0.3 ? undefined : Uint8Array.of(Math.floor(next() * 256), 7);
          all = all.filter(([x]) => compareBytes(x, k) !== 0);
          if (value) all = [...all, [k, value] as Entry].sort(([x], [y]) => compareBytes(x, y));
          windows.write(k, value);
        }
        const a = Math.floor(next() * 2100);
        const lower = key(a);
        const upper = key(a + 1 + Math.floor(next() * 30));
        const kept = windows.lookup(lower, upper);
        // a page's first entries are kept when kept ranges hold them, though the rest of the range may not be
        const max = 1 + Math.floor(next() * 8);
        const first = windows.lookup(lower, upper, undefined, max);
        if (first) expect(first, `the first ${max}`).to.deep.equal(scan(lower, upper).slice(0, max));
        if (kept) {
          answered++;
          expect(kept).to.deep.equal(scan(lower, upper));
          expect(first, "a whole range kept holds its first entries").to.deep.equal(kept.slice(0, max));
        } else {
          const end = windows.nextLow(lower);
          const page = 1 + Math.floor(next() * 12);
          const entries = read(lower, end, page);
          // a full page covers up to its last entry; a short one, the whole range
          windows.keep(lower, entries, entries.length === page ? after(entries.at(-1)![0]) : end);
        }
      }
      expect(answered).to.be.greaterThan(100);
    });
  }

  it("forgets everything on clear", () => {
    const windows = new ScanWindows(1 << 20);
    windows.keep(key(1), [[key(1), key(1)]], Uint8Array.of(0, 1, 0));
    windows.keep(Uint8Array.of(0, 1, 0), [], undefined); // the read after it, to the end
    expect(windows.lookup(key(1), key(2))).to.have.length(1);
    windows.clear();
    expect(windows.lookup(key(1), key(2))).to.equal(undefined);
  });
});
