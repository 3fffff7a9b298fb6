import type { AbciQueryResponse } from "../../client/chainClient.js";
import type { FullKeyReader } from "../store/cacheLayer.js";
import { ModuleReader, utf8 } from "../store/moduleStore.js";
import { concatBytes } from "../store/keyEncoding.js";
import type { KVReader } from "../store/kv.js";
import type { ModuleContext, ParamSubspaces } from "../modules/nodeModule.js";
import { isHiddenParamsKey } from "../modules/shared/paramsKey.js";
import { abciError, SdkError } from "./abciResult.js";
import { encodeKvPairs } from "./kvPairs.js";

/**
 * The most bytes of keys and values a `/subspace` answer gathers (the real node has no bound): a
 * prefix of a large store (every balance) is refused rather than held in memory whole.
 */
const SUBSPACE_MAX_BYTES = 16 * 1024 * 1024;

/** Store keys of the real app that differ from the module's name here (x/auth's store is "acc"). */
const REAL_STORE_NAMES: Record<string, string> = { auth: "acc" };

/** The real app's store key of a module's store. */
export function realStoreName(module: string): string {
  return REAL_STORE_NAMES[module] ?? module;
}

/** What a store query reads: the state at a kept height, and the modules' parameter subspaces. */
export interface StoreQueryDeps {
  moduleNames: readonly string[];
  paramSubspaces: ParamSubspaces;
  context: ModuleContext;
  /** The whole state at a height, or undefined when that height is not kept. */
  stateAt(height: number): FullKeyReader | undefined;
}

/**
 * The real baseapp's `/store/<store>/key|subspace` (handleQueryStore, then the multistore's and the
 * IAVL store's Query): the raw bytes a module's store holds under a key, or every pair under a prefix
 * as kv.Pairs, at the asked height. `subpath` is the path after "/store".
 */
export class StoreQuery {
  private readonly stores: Map<string, string>;

  constructor(private readonly deps: StoreQueryDeps) {
    this.stores = new Map(deps.moduleNames.filter((name) => name !== "params").map((name) => [realStoreName(name), name]));
  }

  async answer(subpath: string[], data: Uint8Array, height: number): Promise<AbciQueryResponse> {
    // rootmulti parsePath: the store name, then the rest of the path as "/..."
    const storeName = subpath[0] ?? "";
    const rest = subpath.length > 1 ? "/" + subpath.slice(1).join("/") : "";
    const isParams = storeName === "params";
    const module = this.stores.get(storeName);
    if (!isParams && !module) return abciError(SdkError.unknownRequest, `no such store: ${storeName}`, height);
    if (data.length === 0) return abciError(SdkError.txDecode, "query cannot be zero length", height);
    if (rest !== "/key" && rest !== "/subspace") return abciError(SdkError.unknownRequest, `unexpected query path: ${rest}`, height);
    const state = this.deps.stateAt(height);
    // the IAVL store answers a height it does not have with this log and code 0
    if (!state) return { code: 0, codespace: "", log: "version does not exist", value: new Uint8Array(), height };
    const store = isParams ? new ParamsStore(state, this.deps) : new RawModuleStore(state, module!);
    if (rest === "/key") return { code: 0, codespace: "", log: "", value: (await store.get(data)) ?? new Uint8Array(), height };
    const pairs: Array<[Uint8Array, Uint8Array]> = [];
    let size = 0;
    for await (const [key, value] of store.iterate(data)) {
      size += data.length + key.length + value.length;
      if (size > SUBSPACE_MAX_BYTES) {
        return abciError(SdkError.invalidRequest, `the pairs under this prefix hold more than ${SUBSPACE_MAX_BYTES} bytes; ask for a longer prefix`, height);
      }
      pairs.push([concatBytes(data, key), value]);
    }
    return { code: 0, codespace: "", log: "", value: encodeKvPairs(pairs), height };
  }
}

/**
 * A module's store as a v0.41 node holds it: its parameters live in the params store, so a scan
 * leaves this node's own params key out. A read of exactly that key still answers it (a v0.41 node
 * has no such key, so no real client asks it): a fork of this node (`start --fork`) reads the
 * module's parameters that way.
 */
class RawModuleStore extends ModuleReader {
  override async *iterate(prefix: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    for await (const [key, value] of super.iterate(prefix)) if (!isHiddenParamsKey(concatBytes(prefix, key))) yield [key, value];
  }
}

/**
 * The x/params store as the real app holds it: "<subspace>/<Key>" → the parameter's amino JSON.
 * Here each module keeps its parameters in its own store; this view reads them through the
 * module's subspace, so a raw read answers the bytes a real node's params store holds.
 */
class ParamsStore implements KVReader {
  constructor(
    private readonly state: FullKeyReader,
    private readonly deps: StoreQueryDeps,
  ) {}

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const text = new TextDecoder().decode(key);
    const slash = text.indexOf("/");
    if (slash < 0) return undefined;
    const values = await this.values(text.slice(0, slash));
    const value = values?.[text.slice(slash + 1)];
    return value === undefined ? undefined : utf8(value);
  }

  async *iterate(prefix: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    const entries: Array<[Uint8Array, Uint8Array]> = [];
    for (const subspace of this.deps.paramSubspaces.keys()) {
      for (const [key, value] of Object.entries((await this.values(subspace)) ?? {})) {
        const full = utf8(`${subspace}/${key}`);
        if (startsWith(full, prefix)) entries.push([full.subarray(prefix.length), utf8(value)]);
      }
    }
    entries.sort(([a], [b]) => Buffer.compare(a, b));
    yield* entries;
  }

  private async values(subspace: string) {
    const entry = this.deps.paramSubspaces.get(subspace);
    return entry ? entry.params.read(new ModuleReader(this.state, entry.module), this.deps.context) : undefined;
  }
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}
