import { expect } from "chai";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PACKAGE_ROOT } from "../../src/util/paths.js";
import { regionText } from "../../scripts/settingsRegions.js";
import { shippedRowsRegion } from "../../scripts/shippedRowsRegion.js";

describe("the README's as-shipped table shows bench/results.json", () => {
  it("is the table made from the committed rows (npm run docs:settings writes it)", () => {
    const readme = fs.readFileSync(path.join(PACKAGE_ROOT, "README.md"), "utf8");
    const region = shippedRowsRegion();
    expect(regionText(readme, region), `README.md between ${region.start} and ${region.end}; run npm run docs:settings`).to.equal(region.body);
  });

  it("moves with the rows: a changed ratio changes the table", () => {
    const results = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "bench", "results.json"), "utf8")) as {
      results: Array<{ subject: string; ratio: number }>;
    };
    const row = results.results.find((r) => r.subject.startsWith("the request log's cost") && r.subject.endsWith(", hot balance"));
    expect(row, "the request log's hot row in results.json").to.not.equal(undefined);
    row!.ratio = 0.5;
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "shipped-rows-")), "results.json");
    fs.writeFileSync(file, JSON.stringify(results));
    const moved = shippedRowsRegion(file).body;
    expect(moved).to.not.equal(shippedRowsRegion().body);
    expect(moved).to.match(/\| hot balance \| [^|]+ \| [^|]+ \| 0\.50x \|/);
  });
});
