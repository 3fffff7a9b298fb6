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
  for (const { name, description, argument, method } of DEV_COMMANDS) {
    const command = dev.command(name).description(description).option("--node <url>", "the node's RPC URL", DEFAULT_NODE);
    if (argument) command.argument(argument.name, argument.description, argument.parse);
    command.action(async (...args: unknown[]) => {
      const opts = args[argument ? 1 : 0] as { node: string };
      const params = argument ? { [argument.param]: args[0] } : {};
      await (await import("./devCalls.js")).printDevCall(opts.node, method, params);
    });
  }
}

/** Each command: its JSON-RPC method, and the positional argument that becomes the method's one param. */
const DEV_COMMANDS: Array<{
  name: string;
  description: string;
  method: string;
  argument?: { name: string; description: string; param: string; parse: (value: string) => unknown };
}> = [
  {
    name: "advance-blocks",
    description: "make <count> blocks now, one after another (the first takes the waiting transactions)",
    method: "advance_blocks",
    argument: { name: "<count>", description: "how many blocks (1 to 10,000)", param: "num_blocks", parse: integerText },
  },
  {
    name: "advance-time",
    description: "move the chain's clock forward: every later block's time is that much later",
    method: "advance_time",
    argument: { name: "<seconds>", description: "how far (0 to 100 years)", param: "duration_in_seconds", parse: integerText },
  },
  {
    name: "auto-blocks",
    description: "turn automatic blocks on or off (off: transactions wait for advance-blocks)",
    method: "set_auto_blocks",
    argument: { name: "<on|off>", description: "on or off", param: "enabled", parse: onOff },
  },
  {
    name: "snapshot",
    description: "take a snapshot of the chain (height, state, blocks, indexes, mempool, clock); prints its id",
    method: "snapshot",
  },
  {
    name: "revert",
    description: "go back to snapshot <id>: later heights are forgotten, and so are this snapshot and every later one",
    method: "revert",
    argument: { name: "<id>", description: "the id snapshot printed", param: "snapshot_id", parse: integerText },
  },
];

/** A non-negative integer as the JSON-RPC wants it (a string); the node checks the bounds. */
function integerText(value: string): string {
  if (!/^\d{1,20}$/.test(value)) throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  return value;
}

function onOff(value: string): boolean {
  if (value !== "on" && value !== "off") throw new InvalidArgumentError(`expected "on" or "off", got "${value}"`);
  return value === "on";
}
