import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { TABLES, tableTypesText } from "../../scripts/tableTypesText.js";
import { PACKAGE_ROOT } from "../../src/util/paths.js";

/** The tables' entry types are generated from their JSON Schemas; the committed files must be what the schemas give today. */
describe("table entry types derived from the JSON Schemas", function () {
  this.timeout(30_000);
  for (const table of TABLES) {
    it(`src/tables/schemaTypes/${table.output} is up to date with ${table.file} (regenerate with: npm run table-types)`, async () => {
      const committed = fs.readFileSync(path.join(PACKAGE_ROOT, "src", "tables", "schemaTypes", table.output), "utf8");
      expect(committed === (await tableTypesText(table)), `src/tables/schemaTypes/${table.output} is out of date: npm run table-types`).to.equal(true);
    });
  }
});
