import { RpcClient } from "../rpcClient.js";
import type { ProbedState } from "./eligibility.js";
import type { UpstreamSettings } from "./upstreamSettings.js";

/** A refusal's log naming the state a node keeps: the embedded node's, and the SDK's "version does not exist" (bounded, linear patterns). */
const KEEPS_HEIGHTS = /keeps heights (\d{1,16}) to (\d{1,16})/;
const VERSION_MISSING = /failed to load state at height (\d{1,16}); version does not exist/;

/**
 * One node behind the gateway: its RPC client, what its probes found, and the
 * calls it has in flight (for the least-loaded choice). Its kept range starts
 * at the status' earliest_block_height, raised when a query at a height is
 * refused because the state there was pruned (a node prunes state long before
 * blocks).
 */
export class UpstreamNode {
  readonly rpc: RpcClient;
  readonly state: ProbedState = { failures: 0, outUntil: 0 };
  inFlight = 0;
  /** A probe is under way (one at a time). */
  probing = false;
  /** The height its NewBlock feed announced last (undefined while that feed is down). */
  fedHeight: number | undefined;
  /** The lowest height whose state this node was found to keep (from refusals). */
  private stateEarliest = 0;

  constructor(
    readonly address: string,
    readonly archive: boolean,
    private readonly settings: UpstreamSettings,
  ) {
    this.rpc = new RpcClient(address, settings.timeoutMs);
  }

  /** The latest height known: the probe's or the NewBlock feed's, the higher. */
  get latest(): number | undefined {
    const probed = this.state.latest;
    if (probed === undefined) return this.fedHeight;
    return Math.max(probed, this.fedHeight ?? 0);
  }

  get earliest(): number | undefined {
    return this.state.earliest === undefined ? undefined : Math.max(this.state.earliest, this.stateEarliest);
  }

  keeps(height: number): boolean {
    const earliest = this.earliest;
    const latest = this.latest;
    return earliest !== undefined && latest !== undefined && height >= earliest && height <= latest;
  }

  keptRange(): string {
    return this.earliest === undefined || this.latest === undefined ? "unknown" : `${this.earliest}-${this.latest}`;
  }

  /** Asks the node's status once, timed; a failure counts toward the cooldown. */
  async probe(now: () => number = Date.now): Promise<void> {
    const started = performance.now();
    try {
      const status = await this.rpc.status();
      const sync = status.sync_info as Record<string, unknown>;
      this.state.chainId = String(status.node_info.network);
      this.state.latest = Number(sync.latest_block_height);
      this.state.latestTime = typeof sync.latest_block_time === "string" ? sync.latest_block_time : "";
      this.state.earliest = Math.max(1, Number(sync.earliest_block_height ?? 1) || 1);
      this.state.latencyMs = performance.now() - started;
      this.state.probeError = sync.catching_up === true ? "catching up" : undefined;
      this.succeeded();
    } catch (err) {
      this.state.probeError = (err as Error).message;
      this.failed(now());
    }
  }

  succeeded(): void {
    this.state.failures = 0;
  }

  /** A call or probe failed: at errorThreshold in a row the node is out for the cooldown. */
  failed(now: number = Date.now()): void {
    this.state.failures++;
    if (this.state.failures >= this.settings.errorThreshold) {
      this.state.outUntil = now + this.settings.cooldownMs;
      this.state.failures = 0;
    }
  }

  /** Learns the kept range from a refused query at `height` (the refusal's log). */
  learnFromRefusal(height: number, log: string): void {
    const keeps = KEEPS_HEIGHTS.exec(log);
    if (keeps) this.stateEarliest = Math.max(this.stateEarliest, Number(keeps[1]));
    else if (VERSION_MISSING.test(log) && height < (this.latest ?? 0)) this.stateEarliest = Math.max(this.stateEarliest, height + 1);
  }

  /** What GET /readyz and the logs show of this node. */
  describe(eligible: string | undefined): Record<string, unknown> {
    return {
      address: this.address,
      archive: this.archive,
      eligible: eligible === undefined,
      ...(eligible === undefined ? {} : { reason: eligible }),
      chain_id: this.state.chainId ?? null,
      latest_height: this.latest === undefined ? null : String(this.latest),
      latest_block_time: this.state.latestTime ?? null,
      earliest_height: this.earliest === undefined ? null : String(this.earliest),
      latency_ms: this.state.latencyMs === undefined ? null : Math.round(this.state.latencyMs),
      in_flight: this.inFlight,
    };
  }
}
