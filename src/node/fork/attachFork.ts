import { RpcClient } from "../../client/rpcClient.js";
import type { VersionedStore } from "../store/versionedStore.js";
import { ForkUnderlay } from "./forkUnderlay.js";
import type { ModuleContext, NodeModule } from "../modules/nodeModule.js";
import { RemoteParams } from "./remoteParams.js";
import { readForkPoint, storedForkPoint, type ForkOptions, type ForkPoint } from "./forkPoint.js";
import { ForkError, RemoteState } from "./remoteState.js";

/** How long one call to the remote may take before it counts as not answered (then tried again, FORK_REMOTE_ATTEMPTS in all). */
const FORK_CALL_TIMEOUT_MS = 10_000;

export interface AttachedFork {
  point: ForkPoint;
  remote: RemoteState;
  /** True when the store is new: the fork's first version is still to be written. */
  fresh: boolean;
}

/**
 * Puts the remote's state under the store when the node is a fork: a new one (`--fork`
 * on an empty store, which reads the remote's chain id and block time at the height)
 * or one started before (its fork point is in the store). Undefined for a chain of its own.
 */
export async function attachFork(
  store: VersionedStore,
  options: ForkOptions | undefined,
  modules: readonly NodeModule[],
  ctx: ModuleContext,
): Promise<AttachedFork | undefined> {
  const stored = store.latestVersion > 0 ? await storedForkPoint(store) : undefined;
  if (!stored && !options) return undefined;
  if (!stored && store.latestVersion > 0) {
    throw new ForkError(`--fork: the store under data/ holds a chain of its own (height ${store.latestVersion}); fork into a new --home, or remove data/`);
  }
  if (stored && options && (options.url !== stored.url || (options.height !== undefined && options.height !== stored.height))) {
    throw new ForkError(
      `--fork: the store under data/ is a fork of ${stored.url} at height ${stored.height}; start it without --fork (or with the same), or fork into a new --home`,
    );
  }
  const url = stored?.url ?? options!.url;
  const client = new RpcClient(url, FORK_CALL_TIMEOUT_MS);
  const point = stored ?? (await readForkPoint(client, url, options!.height));
  const remote = new RemoteState(client, url, point.height);
  const remoteModules = [...new Set(modules.map((m) => m.name))].filter((name) => name !== "params");
  store.setUnderlay(new ForkUnderlay(remote, remoteModules, new RemoteParams(remote, modules, ctx)));
  return { point, remote, fresh: !stored };
}
