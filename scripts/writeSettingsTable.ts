/**
 * Rewrites the settings tables of README.md between their markers from the declarations
 * (src/config/appConfig.ts, nodeConfig.ts). Run after adding or changing a setting:
 * npm run docs:settings (test/config/settingsReadme.test.ts fails while the README is out of date).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withSettingsRegions } from "./settingsRegions.js";

const readmePath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../README.md");
const before = fs.readFileSync(readmePath, "utf8");
const after = withSettingsRegions(before);
if (after !== before) fs.writeFileSync(readmePath, after);
console.log(after === before ? "README.md settings tables already current" : "wrote README.md settings tables");
