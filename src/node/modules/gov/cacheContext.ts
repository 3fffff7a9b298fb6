import { compareBytes, concatBytes } from "../../store/keyEncoding.js";
import type { KVStore } from "../../store/kv.js";
import type { AbciEvent, ExecContext } from "../nodeModule.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const startsWith = (bytes: Uint8Array, prefix: Uint8Array) => prefix.every((b, i) => bytes[i] === b);

/** A store whose writes stay in memory until commit(): reads and iteration see them over the base store. */
class OverlayStore implements KVStore {
  private readonly writes = new Map<string, { key: Uint8Array; value: Uint8Array | undefined }>();

  constructor(private readonly base: KVStore) {}

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const write = this.writes.get(hex(key));
    return write ? write.value : this.base.get(key);
  }

  set(key: Uint8Array, value: Uint8Array): void {
    this.writes.set(hex(key), { key: Uint8Array.from(key), value });
  }

  delete(key: Uint8Array): void {
    this.writes.set(hex(key), { key: Uint8Array.from(key), value: undefined });
  }

  async *iterate(prefix: Uint8Array, start?: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    const merged = new Map<string, { full: Uint8Array; value: Uint8Array }>();
    for await (const [key, value] of this.base.iterate(prefix, start)) {
      const full = concatBytes(prefix, key);
      merged.set(hex(full), { full, value });
    }
    for (const [id, write] of this.writes) {
      if (!startsWith(write.key, prefix)) continue;
      if (start && compareBytes(write.key.subarray(prefix.length), start) < 0) continue;
      if (write.value === undefined) merged.delete(id);
      else merged.set(id, { full: write.key, value: write.value });
    }
    for (const { full, value } of [...merged.values()].sort((a, b) => compareBytes(a.full, b.full))) yield [full.subarray(prefix.length), value];
  }

  commit(): void {
    for (const { key, value } of this.writes.values()) {
      if (value === undefined) this.base.delete(key);
      else this.base.set(key, value);
    }
  }
}

/**
 * ctx.CacheContext(): a context whose writes and events are kept apart; write()
 * applies both to the parent context, dropping it discards them.
 */
export function cacheContext(parent: ExecContext): { ctx: ExecContext; events: AbciEvent[]; write(): void } {
  const overlays = new Map<string, OverlayStore>();
  const events: AbciEvent[] = [];
  const storeOf = (module: string) => {
    let overlay = overlays.get(module);
    if (!overlay) overlays.set(module, (overlay = new OverlayStore(parent.storeOf(module))));
    return overlay;
  };
  const ctx: ExecContext = { ...parent, storeOf, store: storeOf("gov"), emit: (event) => events.push(event) };
  return {
    ctx,
    events,
    write() {
      for (const overlay of overlays.values()) overlay.commit();
    },
  };
}
