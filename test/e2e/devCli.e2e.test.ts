import { expect } from "chai";
import { runCliToEnd } from "../helpers/processes.js";
import { useStartedDevChain } from "../helpers/startedDevChain.js";

type Json = Record<string, any>;

/** `chain-rest dev …` against a started node: each steering method from the command line, its errors, and --help. */
describe("e2e: chain-rest dev (the steering methods from the command line)", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain({ accounts: 4 });

  const dev = async (...args: string[]) => runCliToEnd(["dev", ...args, "--node", chain.node().rpcUrl]);
  /** A dev command that must succeed; gives the JSON it printed. */
  const devOk = async (...args: string[]): Promise<Json> => {
    const r = await dev(...args);
    expect(r.code, r.output).to.equal(0);
    return JSON.parse(r.output.trim()) as Json;
  };
  const height = async () => Number((await chain.ok("/core/base/consensus/v1beta1/blocks/latest")).block.header.height);

  it("advance-blocks, advance-time and auto-blocks call the node's methods and print their results", async () => {
    const start = await height();
    expect(await devOk("advance-blocks", "5")).to.deep.equal({});
    expect(await height()).to.equal(start + 5);
    const moved = await devOk("advance-time", "86400");
    expect(Date.parse(moved.new_time)).to.be.greaterThan(Date.now() + 86_000_000);
    expect(await devOk("auto-blocks", "off")).to.deep.equal({ auto_blocks: false });
    expect(await devOk("auto-blocks", "on")).to.deep.equal({ auto_blocks: true });
  });

  it("snapshot prints an id that revert takes back to its height; the id is then unknown (exit 1, the node's error)", async () => {
    const taken = await devOk("snapshot");
    expect(Number(taken.height)).to.equal(await height());
    await devOk("advance-blocks", "3");
    expect(await devOk("revert", taken.snapshot_id)).to.deep.equal({ height: taken.height });
    expect(await height()).to.equal(Number(taken.height));
    const again = await dev("revert", taken.snapshot_id);
    expect(again.code).to.equal(1);
    expect(again.output).to.include(`chain-rest: revert: Invalid params (-32602): snapshot ${taken.snapshot_id} is unknown`);
  });

  it("refuses bad arguments before calling, reports the node's bounds, and an unreachable node", async () => {
    const word = await dev("advance-blocks", "many");
    expect(word.code).to.equal(1);
    expect(word.output).to.include(`expected a non-negative integer, got "many"`);
    expect((await dev("auto-blocks", "maybe")).output).to.include(`expected "on" or "off", got "maybe"`);
    const tooMany = await dev("advance-blocks", "0");
    expect(tooMany.code).to.equal(1);
    expect(tooMany.output).to.include("num_blocks must be an integer from 1 to 10000");
    const away = await runCliToEnd(["dev", "snapshot", "--node", "http://127.0.0.1:9"]);
    expect(away.code).to.equal(1);
    expect(away.output).to.include("cannot reach the node at http://127.0.0.1:9/");
  });

  it("--help names every command and the --node option", async () => {
    const help = await runCliToEnd(["dev", "--help"]);
    expect(help.code).to.equal(0);
    for (const command of ["advance-blocks", "advance-time", "auto-blocks", "snapshot", "revert"]) expect(help.output).to.include(command);
    const revert = await runCliToEnd(["dev", "revert", "--help"]);
    expect(revert.output).to.include("--node <url>").and.include('default: "http://127.0.0.1:26657"');
  });
});
