import fs from "node:fs";
import path from "node:path";
import { APP_SETTINGS } from "../../src/config/appConfig.js";
import { defaultSettingsText } from "../../src/config/settings.js";

/** Turns [telemetry] on in a home's app.toml (written with the defaults when missing), with the Prometheus format and a global label. */
export function enableTelemetry(home: string, edit: (text: string) => string = (text) => text): void {
  const file = path.join(home, "config", "app.toml");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, defaultSettingsText(APP_SETTINGS));
  }
  const text = fs
    .readFileSync(file, "utf8")
    .replace(/^enabled = false$/m, "enabled = true")
    .replace(/^prometheus-retention-time = 0$/m, "prometheus-retention-time = 60")
    .replace(/^global-labels = \[\]$/m, 'global-labels = [["chain_id", "devnet-1"]]');
  fs.writeFileSync(file, edit(text));
}
