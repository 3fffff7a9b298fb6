import { concatBytes } from "./keyEncoding.js";
import type { FullKeyReader, WritableLayer } from "./cacheLayer.js";
import type { KVReader, KVStore } from "./kv.js";
import { KV_GAS, type GasMeter } from "../tx/gasMeter.js";

const encoder = new TextEncoder();

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

const prefixes = new Map<string, Uint8Array>();

/**
 * The key prefix of a module's store: its keys live under "<module>/" (the real app's per-module stores).
 * Encoded once per module name: a store view is made for every access of every transaction. Not to be written to.
 */
export function modulePrefix(module: string): Uint8Array {
  let prefix = prefixes.get(module);
  if (!prefix) {
    prefix = utf8(`${module}/`);
    prefixes.set(module, prefix);
  }
  return prefix;
}

/** A module's view of the state, for queries. */
export class ModuleReader implements KVReader {
  protected readonly prefix: Uint8Array;

  constructor(
    protected readonly state: FullKeyReader,
    module: string,
  ) {
    this.prefix = modulePrefix(module);
  }

  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.state.get(concatBytes(this.prefix, key));
  }

  async *iterate(prefix: Uint8Array, start?: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    const full = concatBytes(this.prefix, prefix);
    const from = start ? concatBytes(full, start) : undefined;
    for await (const [key, value] of this.state.iterate(full, from)) yield [key.subarray(full.length), value];
  }

  kept(prefix: Uint8Array, start?: Uint8Array, max?: number): Array<[Uint8Array, Uint8Array]> | undefined {
    const full = concatBytes(this.prefix, prefix);
    return this.state.keptUnder?.(full, start ? concatBytes(full, start) : undefined, max);
  }
}

/**
 * A module's view of the state during genesis and block execution: reads see
 * the pending writes; every access is charged to the gas meter, when there is one,
 * at the real system's costs.
 */
export class ModuleStore extends ModuleReader implements KVStore {
  constructor(
    private readonly layer: WritableLayer,
    module: string,
    private readonly gas?: GasMeter,
  ) {
    super(layer, module);
  }

  override async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    this.gas?.consume(KV_GAS.readCostFlat, "ReadFlat");
    const value = await super.get(key);
    this.gas?.consume(KV_GAS.readCostPerByte * (value?.length ?? 0), "ReadPerByte");
    return value;
  }

  override async *iterate(prefix: Uint8Array, start?: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    for await (const [key, value] of super.iterate(prefix, start)) {
      this.gas?.consume(KV_GAS.iterNextCostFlat, "IterNextFlat");
      this.gas?.consume(KV_GAS.readCostPerByte * value.length, "ValuePerByte");
      yield [key, value];
    }
  }

  /** Never: block execution pays gas for each entry it reads, so it iterates. */
  override kept(): undefined {
    return undefined;
  }

  set(key: Uint8Array, value: Uint8Array): void {
    this.gas?.consume(KV_GAS.writeCostFlat, "WriteFlat");
    this.gas?.consume(KV_GAS.writeCostPerByte * value.length, "WritePerByte");
    this.layer.set(concatBytes(this.prefix, key), value);
  }

  delete(key: Uint8Array): void {
    this.gas?.consume(KV_GAS.deleteCost, "Delete");
    this.layer.delete(concatBytes(this.prefix, key));
  }
}
