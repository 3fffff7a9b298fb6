import { type Command, InvalidArgumentError } from "commander";

const DEFAULT_NODE = "http://127.0.0.1:26657";

/**
 * `chain-rest dev …`: the dev chain's steering methods (advance_blocks,
 * advance_time, set_auto_blocks, snapshot, revert) called on a running node's
 * JSON-RPC. Each prints the method's result as JSON; an error answer or an
 * unreachable node is printed and exits 1.
 */
export function addDevCommands(program: Command): void {
  const dev = program
    .command("dev")
    .description("steer a running dev chain over its JSON-RPC: make blocks, move time, snapshot and revert")
    .showHelpAfterError();
  const nodeOption = ["--node <url>", "the node's RPC URL", DEFAULT_NODE] as const;
  const run = async (node: string, method: string, params: Record<string, unknown>) => (await import("./devCalls.js")).printDevCall(node, method, params);

  dev
    .command("advance-blocks")
    .description("make <count> blocks now, one after another (the first takes the waiting transactions)")
    .argument("<count>", "how many blocks (1 to 10,000)", integerText)
    .option(...nodeOption)
    .action((count: string, opts: { node: string }) => run(opts.node, "advance_blocks", { num_blocks: count }));
  dev
    .command("advance-time")
    .description("move the chain's clock forward: every later block's time is that much later")
    .argument("<seconds>", "how far (0 to 100 years)", integerText)
    .option(...nodeOption)
    .action((seconds: string, opts: { node: string }) => run(opts.node, "advance_time", { duration_in_seconds: seconds }));
  dev
    .command("auto-blocks")
    .description("turn automatic blocks on or off (off: transactions wait for advance-blocks)")
    .argument("<on|off>", "on or off", onOff)
    .option(...nodeOption)
    .action((enabled: boolean, opts: { node: string }) => run(opts.node, "set_auto_blocks", { enabled }));
  dev
    .command("snapshot")
    .description("take a snapshot of the chain (height, state, blocks, indexes, mempool, clock); prints its id")
    .option(...nodeOption)
    .action((opts: { node: string }) => run(opts.node, "snapshot", {}));
  dev
    .command("revert")
    .description("go back to snapshot <id>: later heights are forgotten, and so are this snapshot and every later one")
    .argument("<id>", "the id snapshot printed", integerText)
    .option(...nodeOption)
    .action((id: string, opts: { node: string }) => run(opts.node, "revert", { snapshot_id: id }));
}

/** A non-negative integer as the JSON-RPC wants it (a string); the node checks the bounds. */
function integerText(value: string): string {
  if (!/^\d{1,20}$/.test(value)) throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  return value;
}

function onOff(value: string): boolean {
  if (value !== "on" && value !== "off") throw new InvalidArgumentError(`expected "on" or "off", got "${value}"`);
  return value === "on";
}
