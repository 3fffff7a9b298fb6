import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { Ajv, type ValidateFunction } from "ajv";
import { builtValidatorFile, TABLE_AJV_OPTIONS } from "../../src/tables/schemaValidator.js";
import { PACKAGE_ROOT } from "../../src/util/paths.js";

// The tables' schemas are compiled without meta-schema validation at start (it costs ~50 ms each); this checks them once.
describe("route table JSON Schemas", () => {
  const dir = path.join(PACKAGE_ROOT, "src", "tables", "schemas");
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".schema.json"))) {
    it(`${file} is a valid JSON Schema`, () => {
      const ajv = new Ajv({ strict: false });
      const valid = ajv.validateSchema(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")));
      expect(ajv.errors ?? [], file).to.deep.equal([]);
      expect(valid).to.equal(true);
    });
  }
});

describe("table validators written by the build", () => {
  const dir = path.join(PACKAGE_ROOT, "dist", "tables", "schemas");
  const samples = [[], [{}], [{ get: "/x", method: 7 }], { types: { "x.Y": { ints: "no" } } }, [{ get: "/a/{b}", method: "p.Q/M", extra: true }]];
  for (const file of fs.readdirSync(path.join(PACKAGE_ROOT, "src", "tables", "schemas")).filter((f) => f.endsWith(".schema.json"))) {
    it(`dist's validator of ${file} finds the same errors as compiling the schema`, () => {
      const schema = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "src", "tables", "schemas", file), "utf8"));
      const built = createRequire(import.meta.url)(path.join(dir, builtValidatorFile(file))) as ValidateFunction;
      const compiled = new Ajv(TABLE_AJV_OPTIONS).compile(schema);
      for (const sample of samples) {
        expect(built(sample), JSON.stringify(sample)).to.equal(compiled(sample));
        expect(built.errors ?? null).to.deep.equal(compiled.errors ?? null);
      }
    });
  }
});
