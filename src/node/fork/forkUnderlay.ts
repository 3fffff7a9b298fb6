import { compareBytes, concatBytes } from "../store/keyEncoding.js";
import { utf8 } from "../store/moduleStore.js";
import type { StateBatch, StateReader, StateUnderlay } from "../store/versionedStore.js";
import type { RemoteParams } from "./remoteParams.js";
import type { RemoteState } from "./remoteState.js";

/**
 * Where the fork remembers, in its own versioned state, a remote key it deleted: the local
 * store has no entry for a key it never wrote, so "deleted here" must be written down, or
 * the remote's value would show through again. Outside every module's prefix ("~" is in no module name).
 */
const DELETED_PREFIX = utf8("fork~deleted/");

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/**
 * The remote state under a fork's own: a key the fork never wrote is read from the remote
 * at the forked height; a scan merges the remote's range (read once per prefix) with the
 * fork's writes, the fork's value winning and its deletions hiding the remote's.
 * Only the modules' stores in `remoteModules` are read from the remote; a module's parameters
 * come from the remote's params store (`params`, remoteParams.ts), as a real node keeps them.
 */
export class ForkUnderlay implements StateUnderlay {
  private readonly remoteHeads: Uint8Array[];

  constructor(
    private readonly remote: RemoteState,
    remoteModules: readonly string[],
    private readonly params?: RemoteParams,
  ) {
    this.remoteHeads = remoteModules.map((name) => utf8(`${name}/`));
  }

  over(local: StateReader): StateReader {
    return new ForkReader(local, this.remote, (key, whole) => this.isRemote(key, whole), this.params);
  }

  beforeCommit(batch: StateBatch): void {
    for (const key of batch.deletedKeys()) if (this.isRemote(key)) batch.set(concatBytes(DELETED_PREFIX, key), Uint8Array.of(1));
  }

  /** Whether a key lies in a module store read from the remote (`whole`: or is the prefix of such a store). */
  private isRemote(key: Uint8Array, whole = false): boolean {
    return this.remoteHeads.some((head) => (key.length > head.length || (whole && key.length === head.length)) && startsWith(key, head));
  }
}

class ForkReader implements StateReader {
  readonly version: number;

  constructor(
    private readonly local: StateReader,
    private readonly remote: RemoteState,
    private readonly isRemote: (key: Uint8Array, whole?: boolean) => boolean,
    private readonly params?: RemoteParams,
  ) {
    this.version = local.version;
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const value = await this.local.get(key);
    if (value !== undefined || !this.isRemote(key)) return value;
    if (await this.local.get(concatBytes(DELETED_PREFIX, key))) return undefined;
    const slash = key.indexOf(0x2f);
    const module = new TextDecoder().decode(key.subarray(0, slash));
    if (this.params?.answers(module, key.subarray(slash + 1))) return this.params.get(module, key.subarray(slash + 1));
    return this.remote.get(key);
  }

  async *iterate(prefix: Uint8Array, start?: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    if (!this.isRemote(prefix, true)) {
      yield* this.local.iterate(prefix, start);
      return;
    }
    const deleted = new Set<string>();
    for await (const [key] of this.local.iterate(concatBytes(DELETED_PREFIX, prefix))) deleted.add(hex(key.subarray(DELETED_PREFIX.length)));
    const lower = start ?? prefix;
    const remote = (await this.remote.scan(prefix)).filter(([key]) => compareBytes(key, lower) >= 0 && !deleted.has(hex(key)));
    let i = 0;
    for await (const entry of this.local.iterate(prefix, start)) {
      while (i < remote.length && compareBytes(remote[i]![0], entry[0]) < 0) yield remote[i++]!;
      if (i < remote.length && compareBytes(remote[i]![0], entry[0]) === 0) i++; // the fork's write replaces the remote's value
      yield entry;
    }
    while (i < remote.length) yield remote[i++]!;
  }

  /** Never: the remote's entries are merged as the scan goes. */
  keptUnder(): undefined {
    return undefined;
  }
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}
