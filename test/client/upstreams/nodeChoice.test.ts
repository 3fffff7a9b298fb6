import { expect } from "chai";
import { leastLoaded } from "../../../src/client/upstreams/nodeChoice.js";
import type { UpstreamNode } from "../../../src/client/upstreams/upstreamNode.js";

/** leastLoaded reads only a node's calls in flight. */
const node = (name: string) => ({ name, inFlight: 0 }) as unknown as UpstreamNode & { name: string };

describe("choosing a node: least-loaded with hysteresis", () => {
  it("stays on the chosen node while it has at most 16 more calls in flight than the least loaded", () => {
    const nodes = [node("a"), node("b"), node("c")];
    const first = leastLoaded(nodes)!;
    for (let calls = 1; calls <= 16; calls++) {
      first.inFlight = calls;
      expect(leastLoaded(nodes), `${calls} in flight`).to.equal(first);
    }
    first.inFlight = 17;
    const next = leastLoaded(nodes)!;
    expect(next).to.not.equal(first);
    expect(next.inFlight).to.equal(0);
    first.inFlight = 0;
    expect(leastLoaded(nodes), "the new choice is kept in turn").to.equal(next);
  });

  it("never chooses a node outside the list it is given (left out, tried, or archive)", () => {
    const [a, b] = [node("a"), node("b")];
    const kept = leastLoaded([a, b])!;
    const other = kept === a ? b : a;
    expect(leastLoaded([other])).to.equal(other);
    expect(leastLoaded([])).to.equal(undefined);
  });

  it("moves to a less loaded node when the chosen one's queue grows, whichever it was", () => {
    const nodes = [node("a"), node("b"), node("c")];
    const first = leastLoaded(nodes)!;
    first.inFlight = 40;
    const second = leastLoaded(nodes)!;
    second.inFlight = 30;
    const third = leastLoaded(nodes)!;
    expect(new Set([first, second, third]).size, "each node in its turn").to.equal(3);
  });
});
