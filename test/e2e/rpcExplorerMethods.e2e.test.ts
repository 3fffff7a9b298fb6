import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { runCliToEnd, startNode, type StartedNode } from "../helpers/processes.js";
import { tempDir } from "../helpers/tempDir.js";
import { http } from "../helpers/http.js";

async function initHome(configLines: Record<string, string> = {}): Promise<string> {
  const home = path.join(tempDir(), "home");
  const init = await runCliToEnd(["init", "--home", home]);
  expect(init.code, init.output).to.equal(0);
  const file = path.join(home, "config", "config.toml");
  let text = fs.readFileSync(file, "utf8");
  for (const [key, value] of Object.entries(configLines)) {
    const line = new RegExp(`^${key} = .*$`, "m");
    expect(line.test(text), `config.toml has ${key}`).to.equal(true);
    text = text.replace(line, `${key} = ${value}`);
  }
  fs.writeFileSync(file, text);
  return home;
}

const rpcPost = (node: StartedNode, method: string) =>
  http(node.rpcUrl, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: {} }), headers: { "content-type": "application/json" } });

/** What a block explorer asks the node's RPC beside the REST routes: the round state, and CORS for a browser app. */
describe("node RPC for explorers: consensus state and CORS (config.toml [rpc] cors_*)", function () {
  this.timeout(120_000);

  describe("with an allowed origin pattern", () => {
    let node: StartedNode;
    before(async () => {
      node = await startNode(await initHome({ cors_allowed_origins: '["https://*.example.com"]' }));
    });
    after(() => node?.proc.stop());

    it("consensus_state: the 0.34 round state of the next height, round 0, over GET and POST", async () => {
      const status = (await http(`${node.rpcUrl}/status`)).body.result;
      const height = Number(status.sync_info.latest_block_height);
      for (const answer of [await http(`${node.rpcUrl}/consensus_state`), await rpcPost(node, "consensus_state")]) {
        expect(answer.status, answer.text).to.equal(200);
        const state = answer.body.result.round_state;
        expect(state["height/round/step"]).to.equal(`${height + 1}/0/2`);
        expect(state.proposal_block_hash).to.equal("");
        expect(state.height_vote_set).to.have.length(1);
        expect(state.height_vote_set[0].prevotes).to.deep.equal(["nil-Vote"]);
        expect(state.height_vote_set[0].prevotes_bit_array).to.match(/^BA\{1:_\} 0\/\d+ = 0\.00$/);
        expect(state.proposer.address).to.equal(status.validator_info.address);
      }
    });

    it("dump_consensus_state: the full round state, the last commit's vote and no peers", async () => {
      const answer = await rpcPost(node, "dump_consensus_state");
      expect(answer.status, answer.text).to.equal(200);
      const { round_state: state, peers } = answer.body.result;
      expect(peers).to.deep.equal([]);
      const height = Number((await http(`${node.rpcUrl}/status`)).body.result.sync_info.latest_block_height);
      expect(state).to.include({ height: String(height + 1), round: 0, step: 2, locked_round: -1, valid_round: -1, commit_round: -1 });
      expect(state.validators.validators).to.have.length(1);
      expect(state.last_commit.votes_bit_array).to.match(/^BA\{1:x\} (\d+)\/\1 = 1\.00$/);
      expect(state.last_commit.votes[0]).to.match(new RegExp(`^Vote\\{0:[0-9A-F]{12} ${height}/00/SIGNED_MSG_TYPE_PRECOMMIT\\(Precommit\\) `));
    });

    it("answers an allowed origin's preflight and request, and nothing to another origin", async () => {
      const preflight = (origin: string, method = "POST", headers = "content-type") =>
        http(`${node.rpcUrl}/`, { method: "OPTIONS", headers: { origin, "access-control-request-method": method, "access-control-request-headers": headers } });
      const allowed = await preflight("https://app.example.com");
      expect(allowed.status).to.equal(200);
      expect(allowed.headers.get("access-control-allow-origin")).to.equal("https://app.example.com");
      expect(allowed.headers.get("access-control-allow-methods")).to.equal("POST");
      expect(allowed.headers.get("access-control-allow-headers")).to.equal("content-type");
      for (const refused of [
        await preflight("https://evil.org"),
        await preflight("https://app.example.com", "DELETE"),
        await preflight("https://app.example.com", "POST", "x-secret"),
      ]) {
        expect(refused.headers.get("access-control-allow-origin")).to.equal(null);
      }
      const request = await http(`${node.rpcUrl}/health`, { headers: { origin: "https://app.example.com" } });
      expect(request.status).to.equal(200);
      expect(request.headers.get("access-control-allow-origin")).to.equal("https://app.example.com");
      const other = await http(`${node.rpcUrl}/health`, { headers: { origin: "https://evil.org" } });
      expect(other.headers.get("access-control-allow-origin")).to.equal(null);
    });
  });

  it("the default (no origins) leaves CORS off, as the consensus engine's default", async () => {
    const node = await startNode(await initHome());
    try {
      const request = await http(`${node.rpcUrl}/health`, { headers: { origin: "https://app.example.com" } });
      expect(request.status).to.equal(200);
      expect(request.headers.get("access-control-allow-origin")).to.equal(null);
    } finally {
      await node.proc.stop();
    }
  });
});
