import path from "node:path";
import { expect } from "chai";
import { readDevAccounts } from "../../src/commands/home.js";
import { http, type HttpAnswer } from "./http.js";
import { initDevHome } from "./devHome.js";
import { startNode, type StartedNode } from "./processes.js";
import { tempDir } from "./tempDir.js";

export interface StartedDevChain {
  /** The home folder (filled by `init` before the suite's hooks run). */
  home: string;
  /** The running `chain-rest start` process (after the suite's first hook). */
  node(): StartedNode;
  /** The funded dev accounts of the fresh chain. */
  accounts(): string[];
  /** GET on the REST server, asking for JSON. */
  get: (route: string, headers?: Record<string, string>) => Promise<HttpAnswer>;
  /** GET that must answer 200; gives the body. */
  ok: (route: string) => Promise<any>;
  /** GET that must fail with this status and a message that includes this text. */
  fails: (route: string, status: number, message: string) => Promise<void>;
}

/**
 * A `chain-rest start` process on a freshly initialised dev chain for the
 * enclosing describe block: `init` (in this process) in a temporary home, `prepare` to edit the
 * home (genesis, config) before the start, and a clean stop after the block.
 */
export function useStartedDevChain(options: { accounts?: number; mnemonic?: string; prepare?: (home: string) => void } = {}): StartedDevChain {
  const home = path.join(tempDir(), "home");
  let started: StartedNode | undefined;
  before(async () => {
    initDevHome(home, options);
    options.prepare?.(home);
    started = await startNode(home);
  });
  after(async () => {
    await started?.proc.stop();
  });
  const node = () => {
    if (!started) throw new Error("the dev chain is not started yet (use it inside hooks and tests)");
    return started;
  };
  const get = (route: string, headers: Record<string, string> = {}) =>
    http(`${node().restUrl}${route}`, { headers: { accept: "application/json", ...headers } });
  return {
    home,
    node,
    accounts: () => readDevAccounts(home)!.accounts.map((account) => account.address),
    get,
    ok: async (route) => {
      const r = await get(route);
      expect(r.status, `${route}: ${r.text}`).to.equal(200);
      return r.body;
    },
    fails: async (route, status, message) => {
      const r = await get(route);
      expect(r.status, `${route}: ${r.text}`).to.equal(status);
      expect(r.body.message).to.include(message);
    },
  };
}

/** The gateway's error bodies, as grpc-gateway writes a module's NotFound and InvalidArgument errors. */
export const grpcNotFound = (message: string) => ({ code: 5, message: `rpc error: code = NotFound desc = ${message}: key not found`, details: [] });
export const grpcBadRequest = (message: string) => ({ code: 3, message: `rpc error: code = InvalidArgument desc = ${message}: invalid request`, details: [] });
