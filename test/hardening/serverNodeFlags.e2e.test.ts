import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { missingNodeFlags, SERVER_NODE_FLAGS } from "../../src/util/nodeFlags.js";
import { PACKAGE_ROOT } from "../../src/util/paths.js";
import { http } from "../helpers/http.js";
import { runNode } from "../helpers/processes.js";
import { tempDir } from "../helpers/tempDir.js";

const CLI = path.join(PACKAGE_ROOT, "bin", "chain-rest.js");

/** A process's children, from /proc (Linux). */
function childrenOf(pid: number): number[] {
  return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
}

const commandLine = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");

describe("hardening: the servers' fixed young generation (node flags on the command line), one process", function () {
  this.timeout(120_000);

  it("the bin's shebang, `npm start`, the Dockerfile and the systemd unit pass the same flags as SERVER_NODE_FLAGS", () => {
    const flags = SERVER_NODE_FLAGS.join(" ");
    const read = (file: string) => fs.readFileSync(path.join(PACKAGE_ROOT, file), "utf8");
    expect(read("bin/chain-rest.js").split("\n")[0]).to.equal(`#!/usr/bin/env -S node ${flags}`);
    expect((JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.start).to.equal(`node ${flags} bin/chain-rest.js start`);
    expect(read("deploy/Dockerfile")).to.include(`ENTRYPOINT ${JSON.stringify(["node", ...SERVER_NODE_FLAGS, "bin/chain-rest.js"]).replace(/,/g, ", ")}`);
    expect(read("deploy/chain-rest.service")).to.include(`ExecStart=/usr/bin/node ${flags} /opt/chain-rest/bin/chain-rest.js`);
  });

  it("a user's own choice of any of the flags (command line or NODE_OPTIONS) is kept whole", () => {
    const wanted = ["--min-semi-space-size=16", "--max-semi-space-size=16"];
    expect(missingNodeFlags(wanted, ["--max_semi_space_size=4"])).to.deep.equal([]);
    expect(missingNodeFlags(wanted, ["--min-semi-space-size=8"])).to.deep.equal([]);
    expect(missingNodeFlags(wanted, ["--max-old-space-size=512"])).to.deep.equal(process.env.NODE_OPTIONS?.includes("semi-space") ? [] : wanted);
  });

  describe("`node bin/chain-rest.js start` without them is one process: nothing runs it again", function () {
    if (process.platform !== "linux") return; // reads /proc
    const home = path.join(tempDir(), "home");

    it("the process started is the server: no child, V8's own flags, it answers; SIGTERM stops it cleanly", async () => {
      const server = runNode([CLI, "start", "--home", home, "--api.address", "tcp://127.0.0.1:0", "--rpc.laddr", "tcp://127.0.0.1:0"]);
      try {
        const restUrl = (await server.waitFor(/REST server: (http:\/\/\S+)/))[1]!;
        await server.waitFor(/node RPC:/);
        const pid = server.child.pid!;
        expect(childrenOf(pid), "the server's children").to.deep.equal([]);
        expect(commandLine(pid).slice(1, 2)).to.deep.equal([CLI]);
        expect((await http(`${restUrl}/core/bank/v1beta1/params`)).status).to.equal(200);
      } finally {
        expect(await server.stop("SIGTERM")).to.equal(0);
      }
      expect(server.output()).to.include("SIGTERM received").and.include("stopped");
    });
  });
});
