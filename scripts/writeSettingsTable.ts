/**
 * Rewrites the generated tables of README.md between their markers: the settings tables from the
 * declarations (src/config/appConfig.ts, nodeConfig.ts) and the as-shipped bench rows from
 * bench/results.json. Run after adding or changing a setting, or after a bench run:
 * npm run docs:settings (test/config/settingsReadme.test.ts and test/docs/shippedRowsReadme.test.ts
 * fail while the README is out of date).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { settingsRegions, withRegions } from "./settingsRegions.js";
import { shippedRowsRegion } from "./shippedRowsRegion.js";

const readmePath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../README.md");
const before = fs.readFileSync(readmePath, "utf8");
const after = withRegions(before, [...settingsRegions(), shippedRowsRegion()]);
if (after !== before) fs.writeFileSync(readmePath, after);
console.log(after === before ? "README.md generated tables already current" : "wrote README.md generated tables");
