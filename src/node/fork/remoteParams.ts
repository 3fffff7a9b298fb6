import type protobuf from "protobufjs";
import { decToWire } from "../../codec/decimal.js";
import type { ModuleContext, NodeModule, ParamSubspace } from "../modules/nodeModule.js";
import { isParamKeyError } from "../modules/shared/aminoParams.js";
import { isHiddenParamsKey, MODULE_PARAMS_KEY } from "../modules/shared/paramsKey.js";
import { CacheLayer } from "../store/cacheLayer.js";
import { ModuleStore, utf8 } from "../store/moduleStore.js";
import { ForkError, type RemoteState } from "./remoteState.js";

const NANOS_PER_SECOND = 1_000_000_000n;
const DEC_TEXT = /^-?\d+\.\d{18}$/;
const nothing = { get: async () => undefined, async *iterate() {} };
/** Where the Params type is not the GenesisState's sibling: IBC's one genesis holds the client's params. */
const PARAMS_TYPES: Record<string, string> = { "ibc.core.types.v1.GenesisState": "ibc.core.client.v1.Params" };

/**
 * A v0.41 node keeps module parameters in the x/params store (`<subspace>/<Key>` → amino JSON);
 * this node keeps each module's in its own store under a hidden key (shared/paramsKey.ts). A fork
 * reads a module's parameters from the remote's params store, whatever the remote is, and writes
 * them as this node keeps them: through the subspace's own Update where it has one (the gov
 * parameter-change path, validation included), otherwise field by field from the Params proto's
 * field types. Each translation is checked by reading it back with the subspace: a value that
 * does not come back as the remote has it refuses the read (ForkError). One translation per module, kept.
 */
export class RemoteParams {
  private readonly bySubspace = new Map<string, { module: NodeModule; subspace: ParamSubspace }>();
  private readonly translated = new Map<string, Promise<ModuleStore>>();

  constructor(
    private readonly remote: RemoteState,
    modules: readonly NodeModule[],
    private readonly ctx: ModuleContext,
  ) {
    for (const module of modules) if (module.params) this.bySubspace.set(module.name, { module, subspace: module.params });
  }

  /** Whether a full key (`<module>/<key>`) is a module's hidden parameters key this class answers. */
  answers(module: string, key: Uint8Array): boolean {
    return this.bySubspace.has(module) && isHiddenParamsKey(key);
  }

  async get(module: string, key: Uint8Array): Promise<Uint8Array | undefined> {
    let pending = this.translated.get(module);
    if (!pending) {
      pending = this.translate(module);
      this.translated.set(module, pending);
      pending.catch(() => this.translated.delete(module)); // a failed read is tried again next time
    }
    return (await pending).get(key);
  }

  private async translate(module: string): Promise<ModuleStore> {
    const { module: owner, subspace } = this.bySubspace.get(module)!;
    const head = `params/${subspace.subspace}/`;
    const values = new Map<string, string>();
    for (const [key, value] of await this.remote.scan(utf8(head)))
      values.set(new TextDecoder().decode(key).slice(head.length), new TextDecoder().decode(value));
    const store = new ModuleStore(new CacheLayer(nothing), module);
    if (subspace.update) {
      for (const [key, value] of values) {
        try {
          await subspace.update(store, key, value, this.ctx);
        } catch (err) {
          if (!isParamKeyError(err)) throw new ForkError(`fork: the remote's parameter ${subspace.subspace}/${key} = ${value}: ${(err as Error).message}`);
        }
      }
    } else {
      const type = this.ctx.codec.type(PARAMS_TYPES[owner.genesisType] ?? owner.genesisType.replace(/GenesisState$/, "Params"));
      const params: Record<string, unknown> = {};
      for (const [key, value] of values) {
        const field = fieldOf(type, key);
        if (field) params[field.name] = fromAmino(field, JSON.parse(value) as unknown);
      }
      store.set(MODULE_PARAMS_KEY, type.encode(params).finish());
    }
    const back = await subspace.read(store, this.ctx);
    for (const [key, value] of values) {
      if (back[key] !== undefined && canonical(back[key]) !== canonical(value))
        throw new ForkError(`fork: the remote's parameter ${subspace.subspace}/${key} = ${value} reads back here as ${back[key]}`);
    }
    return store;
  }
}

const canonical = (json: string) => JSON.stringify(JSON.parse(json));

/** The Params field of a subspace key: "SigVerifyCostED25519" is sig_verify_cost_ed25519 (names compared without case and underscores). */
function fieldOf(type: protobuf.Type, key: string): protobuf.Field | undefined {
  const wanted = key.toLowerCase();
  return type.fieldsArray.find((f) => f.name.replace(/_/g, "").toLowerCase() === wanted);
}

/** An amino JSON value as the proto field holds it. */
function fromAmino(field: protobuf.Field, value: unknown): unknown {
  if (field.repeated && Array.isArray(value)) return value.map((v) => one(field, v));
  return one(field, value);
}

function one(field: protobuf.Field, value: unknown): unknown {
  if (field.type === "google.protobuf.Duration" || field.resolvedType?.fullName === ".google.protobuf.Duration") {
    const nanos = BigInt(String(value));
    return { seconds: (nanos / NANOS_PER_SECOND).toString(), nanos: Number(nanos % NANOS_PER_SECOND) };
  }
  if (field.type === "string" && typeof value === "string" && DEC_TEXT.test(value)) return decToWire(value);
  return value;
}
