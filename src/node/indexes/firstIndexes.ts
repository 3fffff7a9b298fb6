import type { Codec } from "../../codec/codec.js";
import type { ImportProgress } from "../genesisProgress.js";
import { DELETED_LENGTH, type PackedWrites } from "../store/packedWrites.js";
import { markIndexesComplete, putIndexWrites, type IndexTarget, type StateWrite } from "./indexWrites.js";

/**
 * The first version's indexes, built from its whole state (the genesis
 * writes), with a progress line as the import's other steps have, and marked
 * complete: every later height's are the first's moved by each block's writes.
 */
export function putFirstIndexes(target: IndexTarget, writes: PackedWrites, codec: Codec, progress?: ImportProgress): void {
  progress?.begin("building the derived indexes (delegations by validator; holders by denom; account numbers)", "keys", writes.length);
  putIndexWrites(
    target,
    packedEntries(writes, (n) => progress?.advance(n)),
    codec,
  );
  markIndexesComplete(target);
  progress?.end();
}

const STEP = 65_536;

function* packedEntries(writes: PackedWrites, advance: (n: number) => void): Generator<StateWrite> {
  const { arena } = writes;
  for (let i = 0; i < writes.length; i++) {
    const valueLength = writes.valueLength(i);
    yield {
      key: arena.view(writes.keyAt(i), writes.keyLength(i)),
      value: valueLength === DELETED_LENGTH ? undefined : arena.view(writes.valueAt(i), valueLength),
    };
    if ((i + 1) % STEP === 0) advance(STEP);
  }
  advance(writes.length % STEP);
}
