/**
 * Build step (npm run build, after tsc): writes the validators of app.toml's and
 * config.toml's schemas as code, so that a start does not compile them.
 *
 *   node dist/config/writeConfigValidators.js
 */
import fs from "node:fs";
import { Ajv } from "ajv";
import standaloneCode from "ajv/dist/standalone/index.js";
import { APP_SETTINGS } from "./appConfig.js";
import { NODE_SETTINGS } from "./nodeConfig.js";
import { settingsSchema } from "./settings.js";
import { BUILT_CONFIG_VALIDATORS_DIR, builtConfigValidatorFile, CONFIG_AJV_OPTIONS } from "./configValidator.js";

fs.rmSync(BUILT_CONFIG_VALIDATORS_DIR, { recursive: true, force: true });
fs.mkdirSync(BUILT_CONFIG_VALIDATORS_DIR, { recursive: true });
for (const settings of [APP_SETTINGS, NODE_SETTINGS]) {
  const schema = settingsSchema(settings);
  const ajv = new Ajv({ ...CONFIG_AJV_OPTIONS, code: { source: true } });
  fs.writeFileSync(builtConfigValidatorFile(schema), standaloneCode.default(ajv, ajv.compile(schema)));
}
