import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { swaggerText } from "../../src/commands/swagger.js";
import { PACKAGE_ROOT } from "../../src/util/paths.js";

/**
 * docs/openapi.json is the OpenAPI document the tables produce, committed so that a
 * table diff shows its API effect in review. It must be what `chain-rest swagger` prints.
 */
describe("the committed OpenAPI document", () => {
  it("is what the tables produce today (regenerate with: npm run openapi)", () => {
    const committed = fs.readFileSync(path.join(PACKAGE_ROOT, "docs", "openapi.json"), "utf8");
    const generated = swaggerText("json");
    if (committed === generated) return;
    const [a, b] = [committed.split("\n"), generated.split("\n")];
    const line = a.findIndex((text, i) => text !== b[i]);
    expect.fail(
      `docs/openapi.json is out of date (first difference at line ${line + 1}: ${JSON.stringify(a[line])} → ${JSON.stringify(b[line])}); run: npm run openapi`,
    );
  });
});
