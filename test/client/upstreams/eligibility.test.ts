import { expect } from "chai";
import { ineligibility, type ProbedState } from "../../../src/client/upstreams/eligibility.js";
import type { UpstreamSettings } from "../../../src/client/upstreams/upstreamSettings.js";
import { keptHeightsOf } from "../../../src/http/heightRange.js";

const SETTINGS: UpstreamSettings = {
  probeIntervalMs: 1000,
  maxLagBlocks: 5,
  latencyWindowMs: 500,
  errorThreshold: 3,
  cooldownMs: 10_000,
  timeoutMs: 10_000,
  floorWaitMs: 5000,
};
const NOW = 1_000_000;
const healthy = (over: Partial<ProbedState> = {}): ProbedState => ({ chainId: "devnet-1", latest: 100, latencyMs: 20, failures: 0, outUntil: 0, ...over });

describe("upstream eligibility", () => {
  it("takes a probed node of the expected chain, in the latency window, within max-lag-blocks of the best height", () => {
    expect(ineligibility(healthy(), 100, "devnet-1", 105, SETTINGS, NOW)).to.equal(undefined);
  });

  it("leaves out a node too far behind, too slow, of another chain, failing its probe, not probed, or cooling down, saying why", () => {
    expect(ineligibility(healthy(), 100, "devnet-1", 106, SETTINGS, NOW)).to.equal("at height 100, more than 5 blocks behind 106");
    expect(ineligibility(healthy({ latencyMs: 501 }), 100, "devnet-1", 100, SETTINGS, NOW)).to.equal("probe took 501 ms, more than 500 ms");
    expect(ineligibility(healthy({ chainId: "other-2" }), 100, "devnet-1", 100, SETTINGS, NOW)).to.equal("chain id other-2 is not devnet-1");
    expect(ineligibility(healthy({ probeError: "ECONNREFUSED" }), 100, "devnet-1", 100, SETTINGS, NOW)).to.equal("probe failed: ECONNREFUSED");
    expect(ineligibility(healthy({ latest: undefined }), undefined, "devnet-1", 100, SETTINGS, NOW)).to.equal("not probed yet");
    expect(ineligibility(healthy({ outUntil: NOW + 4500 }), 100, "devnet-1", 100, SETTINGS, NOW)).to.equal("out after 3 failures in a row, for 5 s more");
    expect(ineligibility(healthy({ outUntil: NOW }), 100, "devnet-1", 100, SETTINGS, NOW)).to.equal(undefined);
  });
});

describe("kept heights named by a height-not-available refusal", () => {
  it("reads the embedded node's, a multi-node gateway's and the SDK's texts", () => {
    expect(keptHeightsOf("cannot query at height 2: this node keeps heights 40 to 43: invalid height")).to.deep.equal({ earliest: 40, latest: 43 });
    expect(keptHeightsOf("cannot query at height 2: no node keeps it (earliest height 7, latest height 90); kept heights: a: 7-90")).to.deep.equal({
      earliest: 7,
      latest: 90,
    });
    expect(keptHeightsOf("failed to load state at height 2; version does not exist (latest height: 77)")).to.deep.equal({ latest: 77 });
    expect(keptHeightsOf("account not found")).to.equal(undefined);
  });

  it("reads a hostile log in linear time (a long run of digits is no height)", () => {
    const log = `keeps heights ${"9".repeat(200_000)} to 1`;
    expect(keptHeightsOf(log)).to.equal(undefined);
  });
});
