import { expect } from "chai";
import { LatestValues } from "../../../src/node/store/latestValues.js";
import { FAST } from "../../../src/node/store/fastIndex.js";

const b = (text: string) => new TextEncoder().encode(text);
const t = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : undefined);

describe("LatestValues (kept point reads of the latest state)", () => {
  /** A LevelDB stand-in that counts its reads. */
  function database(state: Record<string, string>) {
    const reads: string[] = [];
    return {
      reads,
      read: (key: string) => () => {
        reads.push(key);
        return key in state ? b(state[key]!) : undefined;
      },
    };
  }
  const fastWrite = (key: string) => ({ key: Uint8Array.of(FAST, ...b(key)) });

  it("reads a key once per version, its absence too", () => {
    const db = database({ a: "1" });
    const values = new LatestValues(100);
    for (let ask = 0; ask < 3; ask++) {
      expect(t(values.get(1, b("a"), db.read("a")))).to.equal("1");
      expect(values.get(1, b("none"), db.read("none"))).to.equal(undefined);
    }
    expect(db.reads).to.deep.equal(["a", "none"]);
  });

  it("forgets at a commit the keys it wrote and keeps the others", () => {
    const state: Record<string, string> = { a: "1", b: "2" };
    const db = database(state);
    const values = new LatestValues(100);
    values.get(1, b("a"), db.read("a"));
    values.get(1, b("b"), db.read("b"));
    state.a = "1@2";
    values.advance(2, [fastWrite("a"), { key: b("sa") }]); // a versioned key ('s…') is not the fast index's
    expect(t(values.get(2, b("a"), db.read("a")))).to.equal("1@2");
    expect(t(values.get(2, b("b"), db.read("b")))).to.equal("2");
    expect(db.reads).to.deep.equal(["a", "b", "a"]);
  });

  it("forgets everything when a commit is not the next version, and when full", () => {
    const db = database({ a: "1", b: "2", c: "3" });
    const values = new LatestValues(2);
    values.get(1, b("a"), db.read("a"));
    values.advance(3, []);
    values.get(3, b("a"), db.read("a"));
    values.get(3, b("b"), db.read("b"));
    values.get(3, b("c"), db.read("c")); // full: a and b forgotten
    values.get(3, b("c"), db.read("c"));
    values.get(3, b("a"), db.read("a"));
    expect(db.reads).to.deep.equal(["a", "a", "b", "c", "a"]);
  });
});
