import { AsyncLocalStorage } from "node:async_hooks";

/** The height a client connection was last answered at (latest-height requests only); kept on the connection's socket. */
export interface ConnectionHeight {
  floor: number;
}

/** What one request through a multi-node gateway carries: its connection's height floor, and what the gateway did. */
export interface UpstreamRequestScope {
  connection: ConnectionHeight;
  /** The node that answered the request's last call. */
  answeredBy?: string;
  /** A broadcast's path through the nodes, told to the client in a header. */
  broadcastNote?: string;
}

const scopes = new AsyncLocalStorage<UpstreamRequestScope>();

export function runInScope<T>(scope: UpstreamRequestScope, run: () => T): T {
  return scopes.run(scope, run);
}

/** The scope of the request being answered (undefined outside one: probes, the NewBlock watch). */
export function currentScope(): UpstreamRequestScope | undefined {
  return scopes.getStore();
}
