import { expect } from "chai";
import { leastLoaded } from "../../../src/client/upstreams/nodeChoice.js";
import type { UpstreamNode } from "../../../src/client/upstreams/upstreamNode.js";

/** leastLoaded reads only a node's calls in flight. */
const node = (name: string) => ({ name, inFlight: 0 }) as unknown as UpstreamNode & { name: string };

/** The end of the current tick: the next choice is made anew. */
const nextTick = () => new Promise((resolve) => process.nextTick(resolve));

describe("choosing a node: least-loaded with hysteresis, once per tick", () => {
  it("stays on the chosen node while it has at most 16 more calls in flight than the least loaded", async () => {
    const nodes = [node("a"), node("b"), node("c")];
    await nextTick();
    const first = leastLoaded(nodes)!;
    for (let calls = 1; calls <= 16; calls++) {
      first.inFlight = calls;
      await nextTick();
      expect(leastLoaded(nodes), `${calls} in flight`).to.equal(first);
    }
    first.inFlight = 17;
    await nextTick();
    const next = leastLoaded(nodes)!;
    expect(next).to.not.equal(first);
    expect(next.inFlight).to.equal(0);
    first.inFlight = 0;
    await nextTick();
    expect(leastLoaded(nodes), "the new choice is kept in turn").to.equal(next);
  });

  it("gives every call of one tick the node its first call got, however their loads move within it", async () => {
    const nodes = [node("a"), node("b"), node("c")];
    await nextTick();
    const first = leastLoaded(nodes)!;
    first.inFlight = 40;
    expect(leastLoaded(nodes), "the same tick").to.equal(first);
    await nextTick();
    expect(leastLoaded(nodes), "the next tick").to.not.equal(first);
  });

  it("never chooses a node outside the list it is given (left out, tried, or archive)", () => {
    const [a, b] = [node("a"), node("b")];
    const kept = leastLoaded([a, b])!;
    const other = kept === a ? b : a;
    expect(leastLoaded([other])).to.equal(other);
    expect(leastLoaded([])).to.equal(undefined);
  });

  it("moves to a less loaded node when the chosen one's queue grows, whichever it was", async () => {
    const nodes = [node("a"), node("b"), node("c")];
    await nextTick();
    const first = leastLoaded(nodes)!;
    first.inFlight = 40;
    await nextTick();
    const second = leastLoaded(nodes)!;
    second.inFlight = 30;
    await nextTick();
    const third = leastLoaded(nodes)!;
    expect(new Set([first, second, third]).size, "each node in its turn").to.equal(3);
  });
});
