import { concatBytes } from "./keyEncoding.js";
import type { StateBatch, StateReader } from "./versionedStore.js";

const encoder = new TextEncoder();

/** A module's view of the state: its keys live under "<module>/" (the real app's per-module stores). */
export class ModuleReader {
  private readonly prefix: Uint8Array;

  constructor(private readonly state: StateReader, module: string) {
    this.prefix = encoder.encode(`${module}/`);
  }

  get height(): number {
    return this.state.version;
  }

  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.state.get(concatBytes(this.prefix, key));
  }

  /** Entries under `prefix` from `start` (relative to `prefix`) on; yielded keys are relative to `prefix`. */
  async *iterate(prefix: Uint8Array, start?: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    const full = concatBytes(this.prefix, prefix);
    const from = start ? concatBytes(full, start) : undefined;
    for await (const [key, value] of this.state.iterate(full, from)) yield [key.subarray(full.length), value];
  }
}

export class ModuleWriter {
  private readonly prefix: Uint8Array;

  constructor(private readonly batch: StateBatch, module: string) {
    this.prefix = encoder.encode(`${module}/`);
  }

  set(key: Uint8Array, value: Uint8Array): void {
    this.batch.set(concatBytes(this.prefix, key), value);
  }

  delete(key: Uint8Array): void {
    this.batch.delete(concatBytes(this.prefix, key));
  }
}

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}
