/**
 * The cost of the node's per-transaction log lines (one `tx` line per transaction and one `block`
 * line per block, always on in `start`): blocks of bank sends made by an in-process node (real
 * LevelDB) with its logger at info, the lines written as text to a file as a service's journal
 * takes them, against the same logger at warn (no lines), in alternating turns. CPU is the whole
 * process's (user + system), CheckTx and the block included, the lines' batch written inside the turn.
 */
import fs from "node:fs";
import path from "node:path";
import { operateNode } from "../src/commands/nodeOperations.js";
import { createLogger, flushLogger } from "../src/telemetry/logger.js";
import { NodeTxKit } from "../test/helpers/nodeTxKit.js";
import { directTx, send } from "../test/helpers/txSigner.js";
import { record, scratchDir } from "./benchTools.js";

const TURNS = 6;
const BLOCKS_PER_TURN = 20;
/** Senders per block (accounts 1..N to account 0): each block holds one send of each. */
const SENDERS = 5;

export async function txLogCostBenchmark(): Promise<void> {
  console.log(`\nper-transaction log lines: ${TURNS} alternating turns of ${BLOCKS_PER_TURN} blocks of ${SENDERS} sends, lines on and off (in process)...`);
  const kit = await NodeTxKit.open(SENDERS + 1);
  const file = path.join(scratchDir("txlog"), "node.log");
  const fd = fs.openSync(file, "w");
  const logger = createLogger("text", "info", fd);
  operateNode(kit.node, kit.node.codec, undefined, logger);
  try {
    const { node, signers, addresses } = kit;
    const blocks = 2 * TURNS * BLOCKS_PER_TURN + 10;
    // signed ahead: the turns time the node and its lines, not the signing
    const txs: Uint8Array[][] = [];
    for (let block = 0; block < blocks; block++) {
      const own: Uint8Array[] = [];
      for (let s = 1; s <= SENDERS; s++)
        own.push(await directTx(signers[s]!, { messages: [send(addresses[s]!, addresses[0]!, "1")], sequence: block, accountNumber: s, gas: 200_000 }));
      txs.push(own);
    }
    let next = 0;
    const makeBlocks = async (count: number) => {
      for (let i = 0; i < count; i++) {
        for (const bytes of txs[next++]!) {
          const checked = await node.checkTx(bytes);
          if (checked.outcome.code !== 0) throw new Error(`the send failed CheckTx: ${checked.outcome.log}`);
        }
        await node.produceBlock();
      }
      await flushLogger(logger);
    };
    await makeBlocks(10); // the JIT's warming, lines on
    const cpu = { on: 0, off: 0 };
    for (let turn = 0; turn < TURNS; turn++) {
      for (const side of turn % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const)) {
        logger.level = side === "on" ? "info" : "warn";
        const before = process.cpuUsage();
        await makeBlocks(BLOCKS_PER_TURN);
        const used = process.cpuUsage(before);
        cpu[side] += used.user + used.system;
      }
    }
    const lines = fs
      .readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.includes("INFO: tx {")).length;
    const expected = (TURNS * BLOCKS_PER_TURN + 10) * SENDERS;
    if (lines !== expected) throw new Error(`${lines} tx lines written, ${expected} expected`);
    const perTx = (us: number) => us / (TURNS * BLOCKS_PER_TURN * SENDERS);
    record({
      subject: "a transaction's CPU in a block (CheckTx and its share of the block), with its log line (text, to a file)",
      baseline: "the same with the logger at warn (no tx or block lines), alternating turns",
      ratio: cpu.off / cpu.on,
      target: "≥ 0.95x (the lines cost ≤ 5 % of a transaction's CPU)",
      subjectValue: `${perTx(cpu.on).toFixed(0)} µs CPU/tx`,
      baselineValue: `${perTx(cpu.off).toFixed(0)} µs CPU/tx`,
      note: `ratio = CPU without the lines / with them; ${TURNS} turns of ${BLOCKS_PER_TURN} blocks of ${SENDERS} sends per side`,
    });
  } finally {
    fs.closeSync(fd);
    await kit.close();
  }
}
