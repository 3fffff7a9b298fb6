import { Command, InvalidArgumentError, Option } from "commander";
import { resolveHome } from "./commands/home.js";
import { FORMATS, type DocumentFormat } from "./openapi/documentFormat.js";
import type { RouteFormat } from "./commands/routes.js";
import type { OpenApiVersion } from "./commands/swagger.js";
import { addDevCommands } from "./commands/devCommand.js";
import { printProduct } from "./commands/productOutput.js";

// Each command loads its modules when it runs: --help, routes and swagger never load the node or open a store.

const program = new Command("chain-rest")
  .description("REST server for a blockchain node: gateway routes (proto3 JSON) and legacy routes (amino JSON), with an embedded development node.")
  .showHelpAfterError();

const homeOption = ["--home <dir>", "home folder with config/ and data/ (default: ~/.chain-rest)"] as const;

program
  .command("init")
  .description("write config files, a development genesis and keys into the home folder")
  .option(...homeOption)
  .option("--chain-id <id>", "chain id", "devnet-1")
  .option("--accounts <n>", "number of funded accounts", positiveInteger, 10)
  .option("--denom <denom>", "base denom", "uhub")
  .option("--prefix <prefix>", 'bech32 prefix of account addresses, written to app.toml (default "hub")')
  .option("--names <profile>", 'naming profile written to app.toml: "seed" (the specification\'s names) or "cosmos" (the real system\'s)')
  .option("--mnemonic <words>", "derive the accounts from this mnemonic instead of a new one")
  .option(
    "--genesis <file>",
    "start from this genesis (e.g. one written by export) instead of a new development genesis; --chain-id, --accounts and --denom then do not apply",
  )
  .action(
    async (opts: { home?: string; chainId: string; accounts: number; denom: string; mnemonic?: string; names?: string; prefix?: string; genesis?: string }) => {
      const { initHome } = await import("./commands/init.js");
      const home = resolveHome(opts.home);
      const dev = initHome({
        genesis: opts.genesis,
        home,
        chainId: opts.chainId,
        accounts: opts.accounts,
        denom: opts.denom,
        mnemonic: opts.mnemonic,
        names: opts.names,
        prefix: opts.prefix,
      });
      if (opts.genesis) printProduct(`initialized ${home} from ${opts.genesis}`);
      else printProduct(`initialized ${home} for chain ${opts.chainId} with ${dev.accounts.length} funded accounts`);
      printProduct(`mnemonic: ${dev.mnemonic}`);
    },
  );

program
  .command("export")
  .description("write the genesis of a stopped home's state (every module's ExportGenesis), as appd export does")
  .option(...homeOption)
  .option("--height <h>", "a kept height to export (default: the latest)", positiveInteger)
  .option("--output <file>", "write the genesis to this file instead of stdout")
  .option("--for-zero-height", "withdraw every reward and commission and reset heights first, for a chain that starts again at height 0")
  .option("--jail-allowed-addrs <addrs>", "with --for-zero-height: comma-separated validator operator addresses; every other validator is jailed", commaList)
  .action(async (opts: { home?: string; height?: number; output?: string; forZeroHeight?: boolean; jailAllowedAddrs?: string[] }) =>
    (await import("./commands/export.js")).exportHome({
      home: resolveHome(opts.home),
      height: opts.height,
      output: opts.output,
      forZeroHeight: opts.forZeroHeight,
      jailAllowedAddrs: opts.jailAllowedAddrs,
    }),
  );

program
  .command("start")
  .description("run the embedded node, its JSON-RPC and the REST server (runs init first when the home is empty)")
  .option(...homeOption)
  .option("--api.address <addr>", "REST listen address, overrides app.toml api.address (e.g. tcp://127.0.0.1:1317)")
  .option("--rpc.laddr <addr>", "node RPC listen address, overrides config.toml rpc.laddr")
  .option("--fork <url>", "fork a live chain: its state at --fork-height, read lazily from this node RPC URL, under a chain of your own (a new --home)")
  .option("--fork-height <height>", "the forked height (default: the remote's latest); the remote must still keep it", positiveInteger)
  .option("--fork-fund <address=coins>", "with --fork: coins minted to an account in the fork, e.g. iaa1...=1000000uhub (repeatable)", collectValues, [])
  .option("--fork-chain-id <id>", "with --fork: the fork's chain id (default: the remote's)")
  .option(
    "--fork-validator <operator>",
    "with --fork: this home's consensus key becomes the only bonded validator (operated by this account, self-bonded with minted coins) and signs the fork's blocks; the remote's validators begin unbonding",
  )
  .addOption(logFormatOption())
  .action(async (opts: Record<string, string | undefined> & { forkFund: string[]; forkHeight?: number }) =>
    (await import("./commands/start.js")).start({
      home: resolveHome(opts.home),
      apiAddress: opts["api.address"],
      rpcLaddr: opts["rpc.laddr"],
      logFormat: opts.logFormat as "text" | "json",
      fork: opts.fork
        ? { url: opts.fork, height: opts.forkHeight, fund: opts.forkFund, chainId: opts.forkChainId, validatorOperator: opts.forkValidator }
        : undefined,
    }),
  );

program
  .command("gateway")
  .description("run only the REST server, in front of a remote node's JSON-RPC")
  .option("--node <url>", "a node's RPC URL, e.g. http://127.0.0.1:26657; repeat it for several nodes (default: [gateway] nodes of app.toml)", collectNode, [])
  .option("--archive-node <url>", "a node keeping old heights, asked for heights the others no longer keep")
  .option(...homeOption)
  .option("--api.address <addr>", "REST listen address, overrides app.toml api.address")
  .option("--names <profile>", "naming profile the node speaks, overrides app.toml names")
  .addOption(logFormatOption())
  .action(async (opts: Record<string, string | undefined> & { node: string[] }) =>
    (await import("./commands/gateway.js")).gateway({
      home: resolveHome(opts.home),
      nodes: opts.node,
      archiveNode: opts.archiveNode,
      apiAddress: opts["api.address"],
      names: opts.names,
      logFormat: opts.logFormat as "text" | "json",
    }),
  );

program
  .command("routes")
  .description("print the compiled route table (verb, path, proto method), or export the gateway routes for other gateways")
  .addOption(
    new Option("--format <format>", "text; google-api-service (google.api.Service YAML); descriptor-set (FileDescriptorSet with google.api.http options)")
      .choices(["text", "google-api-service", "descriptor-set"])
      .default("text"),
  )
  .option("--names <profile>", "naming profile of the paths and methods", "seed")
  .action(async (opts: { names: string; format: RouteFormat }) => (await import("./commands/routes.js")).printRoutes(opts.names, opts.format));

program
  .command("swagger")
  .description("print the OpenAPI v2 document that GET /swagger serves (or with --openapi 3.1 the one GET /openapi.json serves)")
  .addOption(new Option("--format <format>", "output format").choices(FORMATS).default("json"))
  .addOption(new Option("--openapi <version>", "OpenAPI version").choices(["2.0", "3.1"]).default("2.0"))
  .option("--names <profile>", "naming profile of the paths and types", "seed")
  .action(async (opts: { format: DocumentFormat; names: string; openapi: OpenApiVersion }) =>
    (await import("./commands/swagger.js")).printSwagger(opts.format, opts.names, opts.openapi),
  );

addDevCommands(program);

/** --log-format: the logs of start and gateway as readable text (default) or JSON lines. */
function logFormatOption(): Option {
  return new Option("--log-format <format>", "log lines as readable text or JSON lines").choices(["text", "json"]).default("text");
}

function collectValues(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a positive integer");
  return n;
}

/** "a,b, c" → ["a", "b", "c"] (empty parts dropped). */
function commaList(value: string): string[] {
  return value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

program.parseAsync(process.argv).catch(async (err: unknown) => {
  // Mistakes in settings, genesis or tables are reported plainly; anything else with its stack.
  const [{ ConfigError }, { GenesisError }, { TableError }, { NamesError }, { ForkError }, { StoreLockedError }, { reportFailure }] = await Promise.all([
    import("./config/tomlConfig.js"),
    import("./node/genesis.js"),
    import("./tables/loadYamlTable.js"),
    import("./names/namesTable.js"),
    import("./node/fork/remoteState.js"),
    import("./node/store/versionedStore.js"),
    import("./telemetry/processLogger.js"),
  ]);
  const known =
    err instanceof ConfigError ||
    err instanceof GenesisError ||
    err instanceof TableError ||
    err instanceof NamesError ||
    err instanceof ForkError ||
    err instanceof StoreLockedError;
  await reportFailure(`chain-rest: ${known ? err.message : ((err as Error).stack ?? String(err))}`);
  process.exit(1);
});

/** --node may be given several times. */
function collectNode(value: string, previous: string[]): string[] {
  return [...previous, value];
}
