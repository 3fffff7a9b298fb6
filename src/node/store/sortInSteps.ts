/** Strings sorted or merged between two turns of the event loop. */
export const SORT_STEP = 100_000;

const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * `strings` sorted as Array.prototype.sort sorts them (UTF-16 code units), in runs of
 * SORT_STEP sorted natively and merged pairwise, with a turn of the event loop after each
 * step so that the genesis import's progress lines keep coming during the sort of millions
 * of keys. `onStep` counts the strings sorted or merged (each pass over all of them adds
 * `strings.length`).
 */
export async function sortInSteps(strings: string[], onStep: (n: number) => void = () => undefined): Promise<string[]> {
  let runs: string[][] = [];
  for (let i = 0; i < strings.length; i += SORT_STEP) {
    runs.push(strings.slice(i, i + SORT_STEP).sort());
    onStep(runs[runs.length - 1]!.length);
    await turn();
  }
  while (runs.length > 1) {
    const merged: string[][] = [];
    for (let r = 0; r < runs.length; r += 2) merged.push(r + 1 < runs.length ? await merge(runs[r]!, runs[r + 1]!, onStep) : runs[r]!);
    runs = merged;
  }
  return runs[0] ?? [];
}

async function merge(a: string[], b: string[], onStep: (n: number) => void): Promise<string[]> {
  const out = new Array<string>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (k < out.length) {
    const stop = Math.min(out.length, k + SORT_STEP);
    onStep(stop - k);
    while (k < stop) out[k++] = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    await turn();
  }
  return out;
}
