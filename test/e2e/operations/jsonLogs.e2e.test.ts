import { expect } from "chai";
import path from "node:path";
import { http } from "../../helpers/http.js";
import { initDevHome } from "../../helpers/devHome.js";
import { startGateway, startNode, type RunningProcess } from "../../helpers/processes.js";
import { tempDir } from "../../helpers/tempDir.js";

/** Every line the process wrote (stdout and stderr), each parsed as JSON; a line that is not a JSON object fails the test. */
function jsonLines(proc: RunningProcess): Array<{ level: string; msg: string }> {
  return proc
    .output()
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
      expect(parsed, line).to.be.an("object").that.includes.keys("level", "time", "msg");
      return parsed as { level: string; msg: string };
    });
}

describe("e2e: --log-format json makes every line of start and gateway JSON, from the first to the last", function () {
  this.timeout(90_000);

  it("start on an empty home (init, genesis, banner, requests, shutdown) and a gateway in front of it write JSON lines only", async () => {
    const nodeHome = path.join(tempDir(), "home"); // empty: start initializes it first, and says so
    const gatewayHome = path.join(tempDir(), "gateway");
    initDevHome(gatewayHome, { accounts: 4 });
    const node = await startNode(nodeHome, ["--log-format", "json"]);
    let gateway: { proc: RunningProcess; restUrl: string } | undefined;
    try {
      gateway = await startGateway(gatewayHome, node.rpcUrl, ["--log-format", "json"]);
      expect((await http(`${node.restUrl}/core/bank/v1beta1/params`)).status).to.equal(200);
      expect((await http(`${gateway.restUrl}/core/bank/v1beta1/params`)).status).to.equal(200);
    } finally {
      await gateway?.proc.stop();
      await node.proc.stop();
    }
    const nodeLines = jsonLines(node.proc);
    const messages = nodeLines.map((line) => line.msg);
    expect(
      messages.some((msg) => msg.startsWith("initializing a new development chain")),
      messages.join("\n"),
    ).to.equal(true);
    expect(messages.some((msg) => msg.startsWith("funded accounts (mnemonic: "))).to.equal(true);
    expect(messages).to.include(`REST server: ${node.restUrl}`).and.include(`node RPC:    ${node.rpcUrl}`).and.include("stopped");
    expect(messages.some((msg) => msg.startsWith("SIGTERM received"))).to.equal(true);

    const gatewayMessages = jsonLines(gateway.proc).map((line) => line.msg);
    expect(gatewayMessages).to.include(`REST server: ${gateway.restUrl}`).and.include("stopped");
  });
});
