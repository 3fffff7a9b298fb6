import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { missingNodeFlags, SERVER_NODE_FLAGS } from "../../src/util/nodeFlags.js";
import { PACKAGE_ROOT } from "../../src/util/paths.js";
import { http } from "../helpers/http.js";
import { pollUntil } from "../helpers/poll.js";
import { runNode, type RunningProcess } from "../helpers/processes.js";
import { tempDir } from "../helpers/tempDir.js";

const CLI = path.join(PACKAGE_ROOT, "bin", "chain-rest.js");

/** The server a launcher started: its only child process, from /proc (Linux). */
function serverPid(launcher: RunningProcess): number {
  const pid = launcher.child.pid!;
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  expect(children, "the launcher's children").to.have.length(1);
  return children[0]!;
}

const commandLine = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
/** Ended: gone, or a zombie no one has reaped yet (its memory, files and locks are released). */
const ended = (pid: number) => !fs.existsSync(`/proc/${pid}`) || fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.startsWith("Z");

describe("hardening: the servers' fixed young generation (node flags on the command line)", function () {
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

  describe("`node bin/chain-rest.js start` without them runs the server again with them", function () {
    if (process.platform !== "linux") return; // reads /proc
    const home = path.join(tempDir(), "home");
    const start = () => runNode([CLI, "start", "--home", home, "--api.address", "tcp://127.0.0.1:0", "--rpc.laddr", "tcp://127.0.0.1:0"]);

    it("the server (the launcher's child) has the flags and answers; SIGTERM to the launcher stops it cleanly", async () => {
      const launcher = start();
      const restUrl = (await launcher.waitFor(/REST server: (http:\/\/\S+)/))[1]!;
      await launcher.waitFor(/node RPC:/);
      const server = serverPid(launcher);
      const args = commandLine(server);
      expect(args.slice(1, 1 + SERVER_NODE_FLAGS.length)).to.deep.equal(SERVER_NODE_FLAGS);
      expect(args).to.include(CLI);
      expect((await http(`${restUrl}/core/bank/v1beta1/params`)).status).to.equal(200);
      expect(await launcher.stop("SIGTERM")).to.equal(0);
      expect(launcher.output()).to.include("SIGTERM received").and.include("stopped");
      expect(ended(server)).to.equal(true);
    });

    it("SIGKILL to the launcher ends the server too (none is left holding the store)", async () => {
      const launcher = start();
      await launcher.waitFor(/node RPC:/);
      const server = serverPid(launcher);
      launcher.child.kill("SIGKILL");
      await launcher.exited;
      await pollUntil(
        async () => ended(server),
        (done) => done,
      );
    });
  });
});
