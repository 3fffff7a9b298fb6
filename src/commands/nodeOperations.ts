import type { Codec } from "../codec/codec.js";
import type { BlockTiming, EmbeddedNode } from "../node/embeddedNode.js";
import type { CommittedHeight } from "../node/chain/blockStore.js";
import { Mempool } from "../node/chain/mempool.js";
import { decodeTx } from "../node/tx/decodeTx.js";
import { profileTypeUrl } from "../codec/typeRegistry.js";
import { SECONDS_BUCKETS, type CounterCell, type CounterFamily } from "../telemetry/cells.js";
import type { Logger } from "../telemetry/logger.js";
import type { Telemetry } from "../telemetry/telemetry.js";

/** Transactions per block. */
const TXS_BUCKETS = [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000];
/** Seconds between blocks. */
const INTERVAL_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300];

/**
 * The embedded node run for others (`start`): its metrics (height, block
 * time and interval, transactions per block and by result code, mempool size,
 * commit time, kept reads of the store) and one log line per transaction and
 * per block, both from the node's "block" event after each commit.
 */
export function operateNode(node: EmbeddedNode, codec: Codec, telemetry: Telemetry | undefined, logger: Logger): void {
  const onBlock = telemetry ? nodeMetrics(node, telemetry) : undefined;
  node.on("block", (record: CommittedHeight, timing: BlockTiming) => {
    onBlock?.(record, timing);
    logBlock(logger, codec, record, timing);
  });
  // The store does not hold what was acknowledged: serving on would answer state that is not written.
  node.on("storeLost", (reason: string) => {
    logger.error(`the node's store is not consistent with what it acknowledged (${reason}); stopping: restart it to serve what is on disk`);
    process.exit(1);
  });
}

function nodeMetrics(node: EmbeddedNode, telemetry: Telemetry): (record: CommittedHeight, timing: BlockTiming) => void {
  let blockTime: number | undefined;
  void node.committed(node.height).then((latest) => (blockTime ??= latest ? Date.parse(latest.block.block.header.time) : undefined));
  telemetry.gauge("node_height", "The embedded node's latest committed height.").reads(() => node.height);
  telemetry
    .gauge("node_earliest_height", "The lowest height the embedded node still answers queries at (pruning-keep-recent).")
    .reads(() => node.store.earliestVersion);
  telemetry.gauge("node_block_time_seconds", "The latest block's header time, seconds since the epoch.").reads(() => (blockTime ?? 0) / 1000);
  telemetry.gauge("node_mempool_size", "Transactions waiting in the mempool.").reads(() => node.mempool.size);
  const interval = telemetry.histogram("node_block_interval_seconds", "Time between consecutive blocks' header times.", INTERVAL_BUCKETS).child();
  const txsPerBlock = telemetry.histogram("node_block_txs", "Transactions per block.", TXS_BUCKETS).child();
  const commit = telemetry.histogram("node_commit_duration_seconds", "Time to write a block's state in one atomic batch.", SECONDS_BUCKETS).child();
  const byCode = new CodeCounters(telemetry.counter("node_txs_total", "Transactions delivered in blocks, by result codespace and code (0: success)."));
  meterKeptReads(node, telemetry);
  return (record, timing) => {
    const time = Date.parse(record.block.block.header.time);
    if (blockTime !== undefined) interval.observe(Math.max(0, (time - blockTime) / 1000));
    blockTime = time;
    const results = record.results.txs_results ?? [];
    txsPerBlock.observe(results.length);
    commit.observe(timing.commitSeconds);
    for (const result of results) byCode.cell(result.codespace ?? "", result.code ?? 0).value++;
  };
}

/** node_txs_total's children, one per codespace and code seen (bounded by the modules' error tables). */
class CodeCounters {
  private readonly cells = new Map<string, CounterCell>();
  constructor(private readonly family: CounterFamily) {}
  cell(codespace: string, code: number): CounterCell {
    const key = `${codespace}/${code}`;
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = this.family.child({ codespace, code: String(code) })));
    return cell;
  }
}

function meterKeptReads(node: EmbeddedNode, telemetry: Telemetry): void {
  const counts = node.store.keptReads;
  const reads = telemetry.readCounter("store_reads_total", "Reads of the node's state by kind (point, scan).");
  reads.reads(() => counts.pointReads, { kind: "point" });
  reads.reads(() => counts.scans, { kind: "scan" });
  const hits = telemetry.readCounter("store_kept_reads_hits_total", "Reads of the state answered from kept reads in memory, by kind.");
  hits.reads(() => counts.pointReads - counts.pointMisses, { kind: "point" });
  hits.reads(() => counts.scans - counts.scanMisses, { kind: "scan" });
  const misses = telemetry.readCounter("store_kept_reads_misses_total", "Reads of the state that went to LevelDB, by kind.");
  misses.reads(() => counts.pointMisses, { kind: "point" });
  misses.reads(() => counts.scanMisses, { kind: "scan" });
  telemetry.gauge("store_kept_scan_bytes", "Bytes of the kept scan ranges (latest and earlier heights).").reads(() => node.store.keptSize().scanBytes);
  telemetry.gauge("store_kept_values", "Keys whose latest value (or absence) is kept in memory.").reads(() => node.store.keptSize().values);
  telemetry
    .gauge("store_leveldb_memory_bytes", "LevelDB's estimate of its native memory: write buffers and block cache.")
    .reads(() => node.store.levelDbMemoryBytes());
}

/** One line per transaction of the block, then one for the block. */
function logBlock(logger: Logger, codec: Codec, record: CommittedHeight, timing: BlockTiming): void {
  const header = record.block.block.header;
  const txs = record.block.block.data.txs ?? [];
  const results = record.results.txs_results ?? [];
  txs.forEach((tx, index) => {
    const bytes = Buffer.from(tx, "base64");
    const result = results[index];
    logger.info(
      {
        height: Number(header.height),
        hash: Mempool.hashOf(bytes),
        code: result?.code ?? 0,
        codespace: result?.codespace ?? "",
        gas_used: Number(result?.gas_used ?? 0),
        gas_wanted: Number(result?.gas_wanted ?? 0),
        msgs: messageTypes(codec, bytes),
      },
      "tx",
    );
  });
  logger.info(
    {
      height: Number(header.height),
      block_time: header.time,
      txs: txs.length,
      app_hash: record.appHash,
      commit_ms: Math.round(timing.commitSeconds * 1e5) / 100,
    },
    "block",
  );
}

/** The type URLs of a transaction's messages (a tx in a block was decoded before; undecodable here: none). */
function messageTypes(codec: Codec, bytes: Uint8Array): string[] {
  try {
    return decodeTx(codec, bytes, { deterministic: false }).msgs.map((m) => profileTypeUrl(`/${m.typeName}`));
  } catch {
    return [];
  }
}
