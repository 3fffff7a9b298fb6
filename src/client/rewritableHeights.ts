import { NodeRpcError } from "./chainClient.js";

/** JSON-RPC's "Method not found": the node is no dev chain (a real Tendermint node has no dev_chain_status). */
const METHOD_NOT_FOUND = -32601;

export interface DevChainStatus {
  latest_block_height: string;
  snapshots_taken: boolean;
}

/**
 * Which heights of a remote node a revert may write again, for HTTP caching (`immutable`).
 * The node's `dev_chain_status` says, at one moment, whether a snapshot was ever taken and its
 * latest height L. No snapshot yet means any later one is taken at L or above, and a revert to
 * it keeps every height up to L: those answers are final. Above L, the node is asked again (one
 * call at a time, shared); once a snapshot was taken, no height is final any more (as the
 * in-process node decides). A node without the method never reverts. A failed call decides
 * "may change" for that answer only.
 */
export class RewritableHeights {
  private state: { kind: "unknown" } | { kind: "final-up-to"; height: number } | { kind: "never" } | { kind: "always" } = { kind: "unknown" };
  private asking: Promise<void> | undefined;

  constructor(private readonly ask: () => Promise<DevChainStatus>) {}

  async rewritable(height: number): Promise<boolean> {
    if (this.decided(height) === undefined) {
      this.asking ??= this.refresh().finally(() => (this.asking = undefined));
      await this.asking;
    }
    return this.decided(height) ?? true;
  }

  private decided(height: number): boolean | undefined {
    switch (this.state.kind) {
      case "never":
        return false;
      case "always":
        return true;
      case "final-up-to":
        return height <= this.state.height ? false : undefined;
      default:
        return undefined;
    }
  }

  private async refresh(): Promise<void> {
    try {
      const status = await this.ask();
      this.state = status.snapshots_taken ? { kind: "always" } : { kind: "final-up-to", height: Number(status.latest_block_height) };
    } catch (err) {
      if (err instanceof NodeRpcError && err.code === METHOD_NOT_FOUND) this.state = { kind: "never" };
      // otherwise: unknown still, this answer is not final, the next pinned answer asks again
    }
  }
}
