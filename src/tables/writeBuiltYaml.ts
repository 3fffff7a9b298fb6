/**
 * Build step (npm run build, after tsc): writes the package's YAML tables (routes.yaml,
 * legacy-routes.yaml, amino-transforms.yaml, names.yaml) as JSON, which a start reads
 * instead of parsing the YAML (parseYaml finds them by the text's hash).
 *
 *   node dist/tables/writeBuiltYaml.js
 */
import fs from "node:fs";
import path from "node:path";
import { PACKAGE_ROOT } from "../util/paths.js";
import { BUILT_YAML_DIR, writeBuiltYaml } from "./builtYaml.js";

fs.rmSync(BUILT_YAML_DIR, { recursive: true, force: true });
for (const file of fs.readdirSync(PACKAGE_ROOT).filter((f) => f.endsWith(".yaml"))) {
  if (!writeBuiltYaml(fs.readFileSync(path.join(PACKAGE_ROOT, file), "utf8")))
    process.stderr.write(`${file}: kept as YAML (JSON cannot hold its values as they are)\n`);
}
