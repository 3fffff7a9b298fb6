import type { CounterCell, HistogramCell } from "../telemetry/cells.js";
import { SECONDS_BUCKETS } from "../telemetry/cells.js";
import type { Telemetry } from "../telemetry/telemetry.js";
import { NodeUnavailableError, type ChainClient, type HeightListener } from "./chainClient.js";

type Method = "abciQuery" | "broadcastTx" | "tx" | "txSearch" | "block" | "validators" | "status";
const METHODS: Method[] = ["abciQuery", "broadcastTx", "tx", "txSearch", "block", "validators", "status"];

/** The JSON-RPC method each call is, for the labels. */
const RPC_NAMES: Record<Method, string> = {
  abciQuery: "abci_query",
  broadcastTx: "broadcast_tx",
  tx: "tx",
  txSearch: "tx_search",
  block: "block",
  validators: "validators",
  status: "status",
};

/**
 * A remote node's client (`gateway --node`) that knows whether its NewBlock
 * subscription is up (for /readyz) and, with telemetry, keeps the upstream
 * metrics: each call's latency and errors by JSON-RPC method, the node's
 * height as its NewBlock events tell it, and the subscription's state. The
 * cells are resolved here, once; a call adds two numbers and one observation.
 */
export class MeteredClient implements ChainClient {
  readonly address: string;
  readonly watchHeights?: (listener: HeightListener) => () => void;
  readonly subscribeEvents?: ChainClient["subscribeEvents"];
  readonly blockResults?: ChainClient["blockResults"];
  readonly heightsRewritable?: ChainClient["heightsRewritable"];
  private latest: number | undefined;
  private readonly cells: Record<Method, { duration: HistogramCell; unavailable: CounterCell; failed: CounterCell }> | undefined;

  constructor(
    private readonly inner: ChainClient,
    telemetry?: Telemetry,
  ) {
    this.address = inner.address;
    if (inner.watchHeights) {
      const watch = inner.watchHeights.bind(inner);
      this.watchHeights = (listener) =>
        watch((latest) => {
          this.latest = latest;
          listener(latest);
        });
    }
    this.subscribeEvents = inner.subscribeEvents?.bind(inner);
    this.blockResults = inner.blockResults?.bind(inner);
    this.heightsRewritable = inner.heightsRewritable?.bind(inner);
    this.cells = telemetry && this.meter(telemetry);
  }

  private meter(telemetry: Telemetry): MeteredClient["cells"] {
    const duration = telemetry.histogram("upstream_request_duration_seconds", "Time the node took to answer a JSON-RPC call, by method.", SECONDS_BUCKETS);
    const errors = telemetry.counter(
      "upstream_errors_total",
      "JSON-RPC calls to the node that failed, by method and kind (unavailable: not reached in time; error: an error answer).",
    );
    const cells = Object.fromEntries(
      METHODS.map((m) => [
        m,
        {
          duration: duration.child({ method: RPC_NAMES[m] }),
          unavailable: errors.child({ method: RPC_NAMES[m], kind: "unavailable" }),
          failed: errors.child({ method: RPC_NAMES[m], kind: "error" }),
        },
      ]),
    ) as NonNullable<MeteredClient["cells"]>;
    telemetry
      .gauge("upstream_height", "The node's latest height as its NewBlock events tell it (0 while the subscription is down).")
      .reads(() => this.latest ?? 0);
    telemetry
      .gauge("upstream_subscription_up", "1 while the NewBlock subscription to the node is up, else 0.")
      .reads(() => (this.latest === undefined ? 0 : 1));
    return cells;
  }

  /** Whether the NewBlock subscription is up (a height watch has been told a height, and not told since that it lost it). */
  subscriptionUp(): boolean {
    return this.latest !== undefined;
  }

  abciQuery: ChainClient["abciQuery"] = (...args) => this.timed("abciQuery", () => this.inner.abciQuery(...args));
  broadcastTx: ChainClient["broadcastTx"] = (...args) => this.timed("broadcastTx", () => this.inner.broadcastTx(...args));
  tx: ChainClient["tx"] = (...args) => this.timed("tx", () => this.inner.tx(...args));
  txSearch: ChainClient["txSearch"] = (...args) => this.timed("txSearch", () => this.inner.txSearch(...args));
  block: ChainClient["block"] = (...args) => this.timed("block", () => this.inner.block(...args));
  validators: ChainClient["validators"] = (...args) => this.timed("validators", () => this.inner.validators(...args));
  status: ChainClient["status"] = (...args) => this.timed("status", () => this.inner.status(...args));

  private async timed<T>(method: Method, call: () => Promise<T>): Promise<T> {
    if (!this.cells) return call();
    const cells = this.cells[method];
    const started = performance.now();
    try {
      return await call();
    } catch (err) {
      (err instanceof NodeUnavailableError ? cells.unavailable : cells.failed).value++;
      throw err;
    } finally {
      cells.duration.observe((performance.now() - started) / 1000);
    }
  }
}
