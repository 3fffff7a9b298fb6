import type { PendingTx } from "./mempool.js";

/** How many snapshots are kept at once; taking one more forgets the oldest (its id is then unknown). */
export const MAX_SNAPSHOTS = 1_000;

/** A revert to an id never given, or forgotten (reverted to, or before a revert to an earlier one, or pushed out by MAX_SNAPSHOTS). */
export class UnknownSnapshotError extends Error {
  constructor(readonly id: number) {
    super(
      `snapshot ${id} is unknown: never taken, already reverted to (a revert forgets its snapshot and every later one), or among the oldest pushed out (at most ${MAX_SNAPSHOTS} are kept)`,
    );
  }
}

/** What revert brings back: the height, the waiting transactions, and the dev clock's offset. */
export interface Snapshot {
  height: number;
  mempool: PendingTx[];
  clockOffsetMs: number;
}

/**
 * The dev chain's snapshots, by id (1, 2, 3, … in the order taken), as
 * Hardhat's evm_snapshot/evm_revert keep them: taking a snapshot back (a
 * revert) forgets it and every snapshot taken after it.
 */
export class Snapshots {
  private readonly byId = new Map<number, Snapshot>();
  private lastId = 0;

  /** Whether a snapshot was ever taken (heights may then be written again). */
  get everTaken(): boolean {
    return this.lastId > 0;
  }

  /** The lowest height a kept snapshot needs (pruning stops below it), undefined with none. */
  get lowestHeight(): number | undefined {
    let lowest: number | undefined;
    for (const { height } of this.byId.values()) lowest = Math.min(lowest ?? height, height);
    return lowest;
  }

  take(snapshot: Snapshot): number {
    const id = ++this.lastId;
    this.byId.set(id, snapshot);
    if (this.byId.size > MAX_SNAPSHOTS) this.byId.delete(this.byId.keys().next().value!);
    return id;
  }

  get(id: number): Snapshot | undefined {
    return this.byId.get(id);
  }

  /** Forgets snapshot `id` and every later one (after a revert to it). */
  forgetFrom(id: number): void {
    for (const kept of [...this.byId.keys()]) if (kept >= id) this.byId.delete(kept);
  }
}
