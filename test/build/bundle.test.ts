import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "chai";
import { PACKAGE_ROOT } from "../../src/util/paths.js";

// The build's bundle (src/build/writeBundle.ts), which bin/chain-rest.js runs; needs `npm run build`.
const run = promisify(execFile);
const BIN = path.join(PACKAGE_ROOT, "bin", "chain-rest.js");
const BUNDLE_DIR = path.join(PACKAGE_ROOT, "dist", "bundle");
const node = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  run(process.execPath, args, { cwd: os.tmpdir(), env: { ...process.env, ...env }, maxBuffer: 64 << 20 });

describe("the bundled CLI (dist/bundle/)", function () {
  this.timeout(60_000);
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "chain-rest-bundle-"));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is what bin/chain-rest.js runs: the bundle's files, no module of dist/ but the launcher's own", async () => {
    // a loader hook that writes down every module the process loads
    const list = path.join(dir, "loaded.txt");
    const hooks = path.join(dir, "hooks.mjs");
    fs.writeFileSync(
      hooks,
      'import fs from "node:fs";\nexport async function load(url, context, next) { fs.appendFileSync(process.env.LOADED_LIST, url + "\\n"); return next(url, context); }\n',
    );
    const register = path.join(dir, "register.mjs");
    fs.writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(new URL(`file://${hooks}`).href)});\n`);
    await node(["--import", register, BIN, "routes"], { LOADED_LIST: list });
    const dist = fs
      .readFileSync(list, "utf8")
      .split("\n")
      .filter((url) => url.includes("/dist/"));
    expect(dist.filter((url) => !url.includes("/dist/bundle/")).map((url) => url.replace(/^.*\/dist\//, ""))).to.deep.equal(["util/nodeFlags.js"]);
    expect(dist).to.include(new URL(`file://${path.join(BUNDLE_DIR, "cli.js")}`).href);
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
