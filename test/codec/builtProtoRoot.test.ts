import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import protobuf from "protobufjs";
import { loadProtoRoot } from "../../src/codec/protoRoot.js";
import { PACKAGE_ROOT } from "../../src/util/paths.js";

// The root a start loads: written by the build (src/codec/writeProtoJson.ts); needs `npm run build`.
const BUILT = path.join(PACKAGE_ROOT, "dist", "codec", "proto-root.json");

describe("the built protobuf root (dist/codec/proto-root.json)", () => {
  it("loads to the root the .proto files parse to, google.protobuf first so extensions resolve as they are added", () => {
    const json = JSON.parse(fs.readFileSync(BUILT, "utf8")) as protobuf.INamespace & { nested: Record<string, unknown> };
    expect(Object.keys(json.nested)[0]).to.equal("google");
    const built = protobuf.Root.fromJSON(json);
    built.resolveAll();
    expect(built.toJSON()).to.deep.equal(loadProtoRoot().toJSON());
  });
});
