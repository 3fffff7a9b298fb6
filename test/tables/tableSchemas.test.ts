import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
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
