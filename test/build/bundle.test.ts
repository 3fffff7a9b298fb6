import { execFile } from "node:child_process";
import fs from "node:fs";
import httpClient from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { expect } from "chai";
import { SERVER_NODE_FLAGS } from "../../src/util/nodeFlags.js";
import { PACKAGE_ROOT } from "../../src/util/paths.js";
import { BUNDLED_WORKER_NAME } from "../../src/workers/restWorkerEntry.js";
import { setApiSettings } from "../helpers/appToml.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { runCliToEnd, runNode } from "../helpers/processes.js";

// The build's bundle (src/build/writeBundle.ts), which bin/chain-rest.js runs; needs `npm run build`.
const run = promisify(execFile);
const BIN = path.join(PACKAGE_ROOT, "bin", "chain-rest.js");
const BUNDLE_DIR = path.join(PACKAGE_ROOT, "dist", "bundle");
const node = (args: string[]) => run(process.execPath, args, { cwd: os.tmpdir(), maxBuffer: 64 << 20 });
const bundleFile = (name: string) => pathToFileURL(path.join(BUNDLE_DIR, name)).href;
/** The modules of dist/ outside dist/bundle/ among `loaded` (URLs), relative to dist/. */
const outsideBundle = (loaded: string[]) =>
  loaded.filter((url) => url.includes("/dist/") && !url.includes("/dist/bundle/")).map((url) => url.replace(/^.*\/dist\//, ""));

/** A loader hook (`--import register`) that writes down every module each process loads, children with the same flag included. */
function moduleLog(dir: string, name: string): { register: string; byProcess(): Map<string, string[]> } {
  const list = path.join(dir, `${name}-loaded.txt`);
  const hooks = path.join(dir, `${name}-hooks.mjs`);
  fs.writeFileSync(
    hooks,
    `import fs from "node:fs";\nexport async function load(url, context, next) { fs.appendFileSync(${JSON.stringify(list)}, process.pid + " " + url + "\\n"); return next(url, context); }\n`,
  );
  const register = path.join(dir, `${name}-register.mjs`);
  fs.writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  return {
    register,
    byProcess() {
      const loaded = new Map<string, string[]>();
      for (const line of fs.readFileSync(list, "utf8").split("\n").filter(Boolean)) {
        const [pid, url] = line.split(" ") as [string, string];
        loaded.set(pid, [...(loaded.get(pid) ?? []), url]);
      }
      return loaded;
    },
  };
}

/** GETs `url` on a connection of its own each time (the shared socket hands each to the next worker) until `count` workers have answered 200. */
async function askEveryWorker(url: string, count: number): Promise<void> {
  const seen = new Set<string>();
  while (seen.size < count) {
    const answer = await new Promise<{ status: number; worker: string }>((resolve, reject) => {
      const req = httpClient.get(url, { agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode!, worker: String(res.headers["x-chain-rest-worker"]) }));
      });
      req.on("error", reject);
    });
    expect(answer.status).to.equal(200);
    seen.add(answer.worker);
  }
}

describe("the bundled CLI (dist/bundle/)", function () {
  this.timeout(60_000);
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "chain-rest-bundle-"));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is what bin/chain-rest.js runs: the bundle's files, no module of dist/ outside it", async () => {
    const log = moduleLog(dir, "routes");
    await node(["--import", log.register, BIN, "routes"]);
    const [loaded, ...others] = [...log.byProcess().values()];
    expect(others).to.deep.equal([]);
    expect(outsideBundle(loaded!)).to.deep.equal([]);
    expect(loaded).to.include(bundleFile("cli.js"));
  });

  describe("the REST workers of `start` (api.workers = 2)", () => {
    let home: string;
    before(async () => {
      home = path.join(dir, "home");
      expect((await runCliToEnd(["init", "--home", home, "--mnemonic", TEST_MNEMONIC])).code).to.equal(0);
      setApiSettings(home, { workers: 2 });
    });

    /** Runs `node [...nodeArgs] script start` on the home until both workers have answered, then `whileUp(its pid)`, then stops it. */
    async function startOnHome(script: string, nodeArgs: string[], whileUp: (pid: number) => void = () => {}): Promise<void> {
      // the servers' flags given as npm start gives them: the workers are this process's children, with its node flags
      const addresses = ["--api.address", "tcp://127.0.0.1:0", "--rpc.laddr", "tcp://127.0.0.1:0"];
      const server = runNode([...nodeArgs, ...SERVER_NODE_FLAGS, script, "start", "--home", home, ...addresses]);
      try {
        const url = (await server.waitFor(/REST server: (http:\/\/\S+)/))[1]!;
        await askEveryWorker(`${url}/core/bank/v1beta1/params`, 2); // what a route loads lazily, loaded too
        whileUp(server.child.pid!);
      } finally {
        await server.stop();
      }
    }

    it("run the bundle's own entry when bin/chain-rest.js runs the bundle: no module of dist/ outside it", async () => {
      const log = moduleLog(dir, "start");
      await startOnHome(BIN, ["--import", log.register]); // the workers inherit --import
      const processes = [...log.byProcess().values()];
      expect(processes).to.have.length(3);
      const workers = processes.filter((loaded) => !loaded.includes(bundleFile("cli.js")));
      expect(workers).to.have.length(2);
      for (const loaded of workers) {
        expect(loaded).to.include(bundleFile(`${BUNDLED_WORKER_NAME}.js`));
        expect(outsideBundle(loaded)).to.deep.equal([]);
      }
    });

    it("run dist/workers/restWorker.js when the process runs dist/'s modules", async () => {
      let commandLines: string[] = [];
      await startOnHome(path.join(PACKAGE_ROOT, "dist", "cli.js"), [], (pid) => {
        const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ");
        commandLines = children.map((child) => fs.readFileSync(`/proc/${child}/cmdline`, "utf8").split("\0").join(" "));
      });
      expect(commandLines).to.have.length(2);
      for (const line of commandLines) expect(line).to.include(` ${path.join(PACKAGE_ROOT, "dist", "workers", "restWorker.js")}`);
    });
  });

  it("writes the same OpenAPI document as dist/'s modules, under the cosmos names (proto tree, tables, openapi)", async () => {
    const args = ["swagger", "--names", "cosmos", "--openapi", "3.1"];
    const [bundled, modules] = await Promise.all([node([BIN, ...args]), node([path.join(PACKAGE_ROOT, "dist", "cli.js"), ...args])]);
    expect(bundled.stdout.length).to.be.greaterThan(10_000);
    expect(bundled.stdout).to.equal(modules.stdout);
  });

  it("names no path of the machine it was built on (files are found relative to each bundle file)", () => {
    for (const file of fs.readdirSync(BUNDLE_DIR)) {
      const text = fs.readFileSync(path.join(BUNDLE_DIR, file), "utf8");
      expect(text.includes(PACKAGE_ROOT), file).to.equal(false);
    }
  });
});
