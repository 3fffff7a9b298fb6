/**
 * Node/V8 flags that only count on the process's own command line: V8 sizes its heap when the
 * isolate is made, so `v8.setFlagsFromString("--min-semi-space-size=…")` later changes nothing,
 * and Node refuses `--min-semi-space-size` in NODE_OPTIONS. They are passed where the command
 * line is ours (the bin's shebang, `npm start`, the deploy files); nothing runs a second process
 * to add them.
 */

/**
 * The servers' (`start`, `gateway`) young generation, fixed: semi-spaces of 8 MiB from the start,
 * instead of V8's 1 MiB growing to 16 MiB as the request rate rises, so memory reaches this bound
 * in the first seconds and stays there. A smaller young generation did not lower the CPU a
 * request costs and a larger one only raised the memory bound (bench/youngGenerationCost.ts).
 * Also in bin/chain-rest.js's shebang, the `start` script of package.json and deploy/.
 */
export const SERVER_NODE_FLAGS = ["--min-semi-space-size=8", "--max-semi-space-size=8"];

const flagName = (flag: string) => flag.split("=")[0]!.replace(/_/g, "-");

/**
 * `wanted` when none of them is on this process's command line, in NODE_OPTIONS or in `alsoGiven`
 * (flags about to be passed to a child), else none: the flags are one choice, and a user who set
 * any of them chose the whole.
 */
export function missingNodeFlags(wanted: readonly string[], alsoGiven: readonly string[] = []): string[] {
  const names = new Set([...givenNodeFlags(), ...alsoGiven].map(flagName));
  return wanted.some((flag) => names.has(flagName(flag))) ? [] : [...wanted];
}

function givenNodeFlags(): string[] {
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/).filter(Boolean)];
}
