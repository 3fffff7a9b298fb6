import { expect } from "chai";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { PROTO_DIR } from "../../../src/util/paths.js";
import { tempDir } from "../../helpers/tempDir.js";
import { writeProfileProtoTree } from "../../helpers/profileProtoTree.js";
import { BUF, decodeDescriptorSet, exportRoutes, profileMap, type DecodedFile } from "../../helpers/routeExports.js";

/** `buf build <dir>`: protoc's name resolution over every file; the image (a FileDescriptorSet with imports) as bytes. */
async function bufBuild(dir: string): Promise<Uint8Array> {
  const out = path.join(tempDir(), "image.binpb");
  await promisify(execFile)(BUF, ["build", dir, "-o", out], { cwd: dir }).catch((err: { stderr?: string }) => {
    throw new Error(`buf build ${dir} failed:\n${err.stderr}`);
  });
  return fs.readFileSync(out);
}

type Json = Record<string, unknown>;

/** What a gateway reads of a file: names, numbers, types, nesting, methods; options and source info aside. */
function shape(file: DecodedFile): Json {
  const field = (f: Json) => pick(f, ["name", "number", "label", "type", "type_name", "oneof_index", "extendee", "json_name", "default_value"]);
  const enumShape = (e: Json) => ({ name: e.name, value: ((e.value ?? []) as Json[]).map((v) => pick(v, ["name", "number"])) });
  const message = (m: Json): Json => ({
    name: m.name,
    field: ((m.field ?? []) as Json[]).map(field),
    nested_type: ((m.nested_type ?? []) as Json[]).map(message).sort((a, b) => String(a.name).localeCompare(String(b.name))),
    enum_type: ((m.enum_type ?? []) as Json[]).map(enumShape),
    oneof_decl: ((m.oneof_decl ?? []) as Json[]).map((o) => o.name),
    extension_range: ((m.extension_range ?? []) as Json[]).map((r) => pick(r, ["start", "end"])),
  });
  return {
    name: file.name,
    package: file.package,
    message_type: (file.message_type ?? []).map(message),
    enum_type: (file.enum_type ?? []).map(enumShape),
    service: (file.service ?? []).map((s) => ({ name: s.name, method: s.method.map((m) => pick(m, ["name", "input_type", "output_type"])) })),
    extension: (file.extension ?? []).map(field),
  };
}

function pick(value: Json, keys: string[]): Json {
  return Object.fromEntries(keys.filter((k) => value[k] !== undefined).map((k) => [k, value[k]]));
}

describe("the proto tree under protoc's name resolution (buf build from @bufbuild/buf)", function () {
  this.timeout(120_000);

  for (const profile of ["seed", "cosmos"]) {
    it(`${profile}: proto/ in the profile's words builds, and the exported descriptor set says what buf's image says`, async () => {
      const map = profileMap(profile);
      let dir = PROTO_DIR;
      if (!map.isDefault) {
        dir = tempDir();
        writeProfileProtoTree(map, dir);
      }
      const image = decodeDescriptorSet(await bufBuild(dir));
      const exported = decodeDescriptorSet((await exportRoutes("descriptor-set", profile)).stdout);
      const ours = new Map(exported.map((f) => [f.name, f]));
      expect([...ours.keys()].sort()).to.deep.equal(image.map((f) => f.name).sort());
      for (const file of image) {
        const mine = ours.get(file.name)!;
        // our dependencies are the files whose types a file uses, and annotations.proto for the http option
        const imports = new Set(file.dependency ?? []);
        for (const dependency of mine.dependency ?? []) {
          if (dependency !== "google/api/annotations.proto") expect(imports.has(dependency), `${file.name} imports ${dependency}`).to.equal(true);
        }
        // buf brings its own copies of google/protobuf/*, of other versions than protobufjs' bundled ones
        if (file.name.startsWith("google/protobuf/")) continue;
        expect(shape(mine), file.name).to.deep.equal(shape(file));
      }
    });
  }

  it("refuses a relative name that protoc resolves in the nearest scope (the mistake query.proto had)", async () => {
    const dir = tempDir();
    fs.cpSync(PROTO_DIR, dir, { recursive: true });
    const file = path.join(dir, "core", "base", "consensus", "v1beta1", "query.proto");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(".consensus.types.BlockID block_id = 1;", "consensus.types.BlockID block_id = 1;"));
    const failed = await bufBuild(dir).then(
      () => "",
      (err: Error) => err.message,
    );
    expect(failed).to.match(/consensus\.types\.BlockID/);
  });
});
