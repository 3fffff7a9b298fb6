import { openDevNode } from "../test/helpers/devNode.js";
const { node } = await openDevNode();
await node.advanceBlocks(50);
const t0 = performance.now();
await node.advanceBlocks(500);
const ms = performance.now() - t0;
console.log(`500 empty blocks: ${ms.toFixed(0)} ms, ${(ms / 500).toFixed(2)} ms/block`);
await node.close();
