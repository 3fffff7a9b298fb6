/**
 * The dev chain's steering costs, on an in-process node (openDevNode, real
 * LevelDB), each against a baseline measured in the same run:
 * - an empty block (advance_blocks) against a block with one MsgSend (CheckTx,
 *   then the block), in alternating turns;
 * - a revert that forgets 1,000 blocks against making those 1,000 blocks.
 */
import { NodeTxKit } from "../test/helpers/nodeTxKit.js";
import { directTx, send } from "../test/helpers/txSigner.js";
import { record } from "./benchTools.js";

const TURNS = 4;
const BLOCKS_PER_TURN = 50;
const REVERTED_BLOCKS = 1_000;

export async function devChainBenchmarks(): Promise<void> {
  console.log("\ndev chain: empty blocks, blocks with one send, a revert of 1,000 blocks (in process)...");
  const kit = await NodeTxKit.open(6);
  try {
    await emptyBlockRow(kit);
    await revertRow(kit);
  } finally {
    await kit.close();
  }
}

async function emptyBlockRow(kit: NodeTxKit): Promise<void> {
  const { node, signers, addresses } = kit;
  // signed ahead, so that the turns time the node only
  const sends: Uint8Array[] = [];
  for (let sequence = 0; sequence < TURNS * BLOCKS_PER_TURN; sequence++) {
    sends.push(await directTx(signers[1]!, { messages: [send(addresses[1]!, addresses[2]!, "1")], sequence, accountNumber: 1, gas: 200_000 }));
  }
  await node.advanceBlocks(20); // warm up
  let emptyMs = 0;
  let sendMs = 0;
  for (let turn = 0; turn < TURNS; turn++) {
    let started = performance.now();
    await node.advanceBlocks(BLOCKS_PER_TURN);
    emptyMs += performance.now() - started;
    started = performance.now();
    for (const bytes of sends.slice(turn * BLOCKS_PER_TURN, (turn + 1) * BLOCKS_PER_TURN)) {
      const checked = await node.checkTx(bytes);
      if (checked.outcome.code !== 0) throw new Error(`the send failed CheckTx: ${checked.outcome.log}`);
      await node.produceBlock();
    }
    sendMs += performance.now() - started;
  }
  const blocks = TURNS * BLOCKS_PER_TURN;
  record({
    subject: "empty block (advance_blocks), in process",
    baseline: "block with one MsgSend (CheckTx and the block)",
    ratio: sendMs / emptyMs,
    target: "≥ 1.0x (an empty block costs no more than one with a send)",
    subjectValue: `${(emptyMs / blocks).toFixed(1)} ms (${((1000 * blocks) / emptyMs).toFixed(0)} blocks/s)`,
    baselineValue: `${(sendMs / blocks).toFixed(1)} ms`,
    note: `ratio = baseline time / subject time; ${blocks} blocks each, ${TURNS} alternating turns of ${BLOCKS_PER_TURN}`,
  });
}

async function revertRow(kit: NodeTxKit): Promise<void> {
  const { node } = kit;
  const { id, height } = await node.snapshot();
  let started = performance.now();
  await node.advanceBlocks(REVERTED_BLOCKS);
  const makeMs = performance.now() - started;
  started = performance.now();
  await node.revert(id);
  const revertMs = performance.now() - started;
  if (node.height !== height) throw new Error(`the revert left height ${node.height}, not ${height}`);
  record({
    subject: `revert forgetting ${REVERTED_BLOCKS.toLocaleString("en")} blocks, in process`,
    baseline: `making those ${REVERTED_BLOCKS.toLocaleString("en")} blocks (advance_blocks)`,
    ratio: makeMs / revertMs,
    target: "≥ 5x (a revert costs at most a fifth of making what it forgets)",
    subjectValue: `${revertMs.toFixed(0)} ms`,
    baselineValue: `${makeMs.toFixed(0)} ms`,
    note: "ratio = baseline time / subject time",
  });
}
