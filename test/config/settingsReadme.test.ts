import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { APP_SETTINGS } from "../../src/config/appConfig.js";
import { NODE_SETTINGS } from "../../src/config/nodeConfig.js";
import { defaultSettingsText, type SettingsFile } from "../../src/config/settings.js";
import { PACKAGE_ROOT } from "../../src/util/paths.js";
import { regionText, settingsRegions } from "../../scripts/settingsRegions.js";

/** Each setting is declared once (src/config/appConfig.ts, nodeConfig.ts); the README and the default files come from it. */
describe("settings declared once", () => {
  const readme = fs.readFileSync(path.join(PACKAGE_ROOT, "README.md"), "utf8");
  const files: Array<[string, SettingsFile]> = [
    ["app.toml", APP_SETTINGS],
    ["config.toml", NODE_SETTINGS],
  ];
  for (const region of settingsRegions()) {
    it(`the README's whole ${region.name} region is the declarations' table (npm run docs:settings writes it)`, () => {
      expect(regionText(readme, region), `README.md between ${region.start} and ${region.end}; run npm run docs:settings`).to.equal(region.body);
    });
  }
  for (const [name, settings] of files) {
    it(`the default ${name} holds every declared default`, () => {
      const written = parseToml(defaultSettingsText(settings)) as Record<string, Record<string, unknown>>;
      for (const [key, setting] of Object.entries(settings.top)) expect(written[key], key).to.equal(setting.default);
      for (const [section, group] of Object.entries(settings.sections)) {
        for (const [key, setting] of Object.entries(group)) expect(written[section]?.[key], `${section}.${key}`).to.deep.equal(setting.default);
      }
    });
  }
});
