import { expect } from "chai";
import { createRequire } from "node:module";
import path from "node:path";
import type { ValidateFunction } from "ajv";
import { Ajv } from "ajv";
import { APP_SETTINGS } from "../../src/config/appConfig.js";
import { NODE_SETTINGS } from "../../src/config/nodeConfig.js";
import { settingsSchema } from "../../src/config/settings.js";
import { builtConfigValidatorFile, CONFIG_AJV_OPTIONS } from "../../src/config/configValidator.js";
import { PACKAGE_ROOT } from "../../src/util/paths.js";

// npm run build writes them (dist/config/validators); a start loads them instead of compiling the schemas.
describe("settings validators written by the build", () => {
  const samples = [
    {},
    { api: { address: 7 } },
    { api: { enable: "yes" } },
    { rpc: { laddr: "nowhere" } },
    { telemetry: { enabled: true } },
    { faucet: { account: -1 } },
  ];
  for (const [name, settings] of [
    ["app.toml", APP_SETTINGS],
    ["config.toml", NODE_SETTINGS],
  ] as const) {
    it(`dist's validator of ${name} fills the same defaults and finds the same errors as compiling its schema`, () => {
      const schema = settingsSchema(settings);
      const file = path.join(PACKAGE_ROOT, "dist", "config", "validators", path.basename(builtConfigValidatorFile(schema)));
      const built = createRequire(import.meta.url)(file) as ValidateFunction;
      const compiled = new Ajv(CONFIG_AJV_OPTIONS).compile(schema);
      for (const sample of samples) {
        const [a, b] = [structuredClone(sample), structuredClone(sample)];
        expect(built(a), JSON.stringify(sample)).to.equal(compiled(b));
        expect(built.errors ?? null).to.deep.equal(compiled.errors ?? null);
        expect(a).to.deep.equal(b);
      }
    });
  }
});
