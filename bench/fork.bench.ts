import path from "node:path";
import { initHome } from "../src/commands/init.js";
import { deriveAccounts } from "../src/codec/keys.js";
import { TEST_MNEMONIC } from "../test/helpers/devNode.js";
import { editConfig } from "./benchHome.js";
import { child, FREE_PORTS, serverCommand, fmtMs, get, interleavedTimings, record, startChainRest } from "./benchTools.js";

const ACCOUNTS = 300;
const BLOCK = 10;

/** Both homes measure the node, not a log line per request nor the REST answer cache (a repeated query would be the cache's). */
function quietHome(home: string): void {
  editConfig(home, "app.toml", 'log-requests = "auto"', 'log-requests = "off"');
  editConfig(home, "app.toml", "answer-cache-mb = 32", "answer-cache-mb = 0");
}

/**
 * `start --fork`: a balance query on a fork of a running chain-rest node (the source), the first
 * time for an account (the fork reads the remote's range of that account over abci_query) and
 * again (the fork's cache answers), against the same query on the source itself (a local node,
 * no fork), in interleaved turns of BLOCK accounts.
 */
export async function forkBenchmark(dir: string): Promise<void> {
  console.log(`\nfork of a node with ${ACCOUNTS} accounts: first and repeated balance queries against the source's own...`);
  const sourceHome = path.join(dir, "home-fork-source");
  initHome({ home: sourceHome, chainId: "devnet-1", accounts: ACCOUNTS, denom: "uhub", mnemonic: TEST_MNEMONIC });
  quietHome(sourceHome);
  const source = await startChainRest(sourceHome);
  const forkHome = path.join(dir, "home-fork");
  initHome({ home: forkHome, chainId: "devnet-1", accounts: 4, denom: "uhub" });
  quietHome(forkHome);
  const fork = child([...serverCommand(), "start", "--home", forkHome, ...FREE_PORTS, "--fork", source.rpcUrl]);
  try {
    await fork.waitFor(/node RPC:\s+(http:\/\/\S+)/);
    const forkRest = fork.output().match(/REST server: (http:\/\/\S+)/)![1]!;
    const addresses = deriveAccounts(TEST_MNEMONIC, "hub", ACCOUNTS).map((a) => a.address);
    const balance = (restUrl: string) => async (i: number) => {
      const r = await get(`${restUrl}/core/bank/v1beta1/balances/${addresses[i]}`);
      if (r.status !== 200) throw new Error(`balance on ${restUrl}: ${r.status} ${r.body.slice(0, 200)}`);
    };
    const [first, again, local] = await interleavedTimings(ACCOUNTS, BLOCK, [balance(forkRest), balance(forkRest), balance(source.restUrl)]);
    const rows: Array<[string, { p50: number; p99: number }, string]> = [
      ["first time for the account (read from the remote)", first, "≥ 0.33x"],
      ["again (from the fork's cache)", again, "≥ 0.8x"],
    ];
    for (const [what, t, target] of rows) {
      record({
        subject: `GET /core/bank/v1beta1/balances/{address} on a fork, ${what} (p50)`,
        baseline: "the same query on the source node itself (local, no fork) (p50)",
        ratio: local.p50 / t.p50,
        target,
        subjectValue: fmtMs(t.p50),
        baselineValue: fmtMs(local.p50),
        p50: t.p50,
        p99: t.p99,
        note: `ratio = baseline time / subject time; ${ACCOUNTS} accounts, each asked once first, in turns of ${BLOCK}; answer cache off on both; source p99 ${fmtMs(local.p99)}`,
      });
    }
  } finally {
    await fork.stop();
    await source.node.stop();
  }
}
