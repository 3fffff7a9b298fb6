import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { load } from "js-yaml";
import { builtYamlFile, parseYaml } from "../../src/tables/builtYaml.js";
import { PACKAGE_ROOT } from "../../src/util/paths.js";

// npm run build writes the package's YAML tables as JSON (dist/tables/parsed); a start reads them instead of parsing.
describe("YAML tables written as JSON by the build", () => {
  for (const file of fs.readdirSync(PACKAGE_ROOT).filter((f) => f.endsWith(".yaml"))) {
    it(`dist's JSON of ${file} is the value js-yaml parses`, () => {
      const text = fs.readFileSync(path.join(PACKAGE_ROOT, file), "utf8");
      const built = path.join(PACKAGE_ROOT, "dist", "tables", "parsed", path.basename(builtYamlFile(text)));
      expect(JSON.parse(fs.readFileSync(built, "utf8"))).to.deep.equal(load(text));
    });
  }

  it("parses a text the build did not write (an edited table) with js-yaml, whose errors name the file", () => {
    expect(parseYaml("- get: /x\n  method: a.B/C\n")).to.deep.equal([{ get: "/x", method: "a.B/C" }]);
    expect(() => parseYaml("- get: [\n", "mine.yaml")).to.throw(/mine\.yaml/);
  });
});
