import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { loadAppConfig } from "../../src/config/appConfig.js";
import { loadNodeConfig } from "../../src/config/nodeConfig.js";
import { ConfigError } from "../../src/config/tomlConfig.js";
import { tempDir, writeFile } from "../helpers/tempDir.js";

describe("configuration files", () => {
  const root = tempDir();
  let n = 0;
  const home = () => path.join(root, `home-${n++}`);

  it("creates a missing app.toml with the defaults and comments, and reads them back", () => {
    const h = home();
    const config = loadAppConfig(h);
    expect(config.api).to.deep.equal({
      enable: true,
      address: "tcp://0.0.0.0:1317",
      swagger: true,
      "newer-routes": true,
      "max-open-connections": 1000,
      "max-idle-connections": 10000,
      "rate-limit": 0,
      "rate-limit-burst": 0,
      "trusted-proxies": "",
      workers: 1,
      "rpc-read-timeout": 10,
      "rpc-write-timeout": 0,
      "rpc-max-body-bytes": 1000000,
      "enabled-unsafe-cors": false,
      "answer-cache-mb": 32,
      "cache-max-age": 0,
      "max-page-limit": 1000,
      "max-page-offset": 10000,
      "max-count-total": 10000,
      "disabled-routes": "",
      "route-weights": [
        ["holders", "20"],
        ["tx-search", "20"],
        ["validator-lists", "10"],
      ],
      "log-requests": "auto",
    });
    expect(config.telemetry).to.deep.equal({
      "service-name": "chain-rest",
      enabled: false,
      "enable-hostname": false,
      "enable-hostname-label": false,
      "enable-service-label": false,
      "prometheus-retention-time": 0,
      "global-labels": [],
    });
    const text = fs.readFileSync(path.join(h, "config", "app.toml"), "utf8");
    expect(text).to.include("# Whether the REST server runs.");
    expect(text).to.include('address = "tcp://0.0.0.0:1317"');
  });

  it("reads [telemetry] global-labels as [name, value] pairs and refuses a pair that is not one", () => {
    const good = home();
    writeFile(good, "config/app.toml", '[telemetry]\nenabled = true\nglobal-labels = [["chain_id", "devnet-1"]]\n');
    expect(loadAppConfig(good).telemetry["global-labels"]).to.deep.equal([["chain_id", "devnet-1"]]);
    for (const labels of ['[["chain-id", "x"]]', '[["chain_id"]]', '["chain_id"]', '[["a", "b", "c"]]']) {
      const bad = home();
      writeFile(bad, "config/app.toml", `[telemetry]\nglobal-labels = ${labels}\n`);
      expect(() => loadAppConfig(bad), labels).to.throw(ConfigError, /telemetry\.global-labels.* must be a list of \[name, value\] pairs/);
    }
  });

  it("fills keys a file leaves out with their defaults", () => {
    const h = home();
    writeFile(h, "config/app.toml", "[api]\nenable = false\n");
    const config = loadAppConfig(h);
    expect(config.api.enable).to.equal(false);
    expect(config.api.swagger).to.equal(true);
    expect(config["pruning-keep-recent"]).to.equal(100);
  });

  it("stops on a wrong type, naming file, key and expected value", () => {
    const h = home();
    const file = writeFile(h, "config/app.toml", '[api]\nenable = "yes"\n');
    expect(() => loadAppConfig(h)).to.throw(ConfigError, `${file}: key "api.enable" must be true or false (got "yes")`);
  });

  it("stops on a wrong value, naming file, key and expected value", () => {
    const h = home();
    const file = writeFile(h, "config/app.toml", '[api]\naddress = "localhost"\n');
    expect(() => loadAppConfig(h)).to.throw(ConfigError, `${file}: key "api.address" must be an address like "tcp://0.0.0.0:1317" (got "localhost")`);
  });

  it('reads api.workers as a number from 1 or "auto", and refuses anything else', () => {
    for (const [text, value] of [
      ["2", 2],
      ['"auto"', "auto"],
    ] as const) {
      const h = home();
      writeFile(h, "config/app.toml", `[api]\nworkers = ${text}\n`);
      expect(loadAppConfig(h).api.workers).to.equal(value);
    }
    for (const text of ["0", "1.5", '"2"', '"all"', "257"]) {
      const h = home();
      const file = writeFile(h, "config/app.toml", `[api]\nworkers = ${text}\n`);
      expect(() => loadAppConfig(h), text).to.throw(ConfigError, `${file}: key "api.workers" must be an integer from 1 to 256, or "auto" (one per core)`);
    }
  });

  it("stops on a file that is not TOML", () => {
    const h = home();
    const file = writeFile(h, "config/app.toml", "[api\n");
    expect(() => loadAppConfig(h)).to.throw(ConfigError, `${file}: not valid TOML`);
  });

  it("creates config.toml with the node's defaults", () => {
    const config = loadNodeConfig(home());
    expect(config.rpc.laddr).to.equal("tcp://127.0.0.1:26657");
    expect(config.consensus.create_empty_blocks).to.equal(false);
  });

  it("stops on a bad node setting, naming file and key", () => {
    const h = home();
    const file = writeFile(h, "config/config.toml", '[consensus]\ncreate_empty_blocks_interval = "soon"\n');
    expect(() => loadNodeConfig(h)).to.throw(
      ConfigError,
      `${file}: key "consensus.create_empty_blocks_interval" must be a duration like "1s" or "500ms" (got "soon")`,
    );
  });
});
