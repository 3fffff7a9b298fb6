import fs from "node:fs";
import path from "node:path";

/** Sets [api] keys in a home's app.toml (written by `init` with every default), for a test's `prepare`. */
export function setApiSettings(home: string, settings: Record<string, number | string | boolean>): void {
  const file = path.join(home, "config", "app.toml");
  let text = fs.readFileSync(file, "utf8");
  for (const [key, value] of Object.entries(settings)) {
    const line = new RegExp(`^${key} = .*$`, "m");
    if (!line.test(text)) throw new Error(`app.toml has no ${key} line`);
    text = text.replace(line, `${key} = ${typeof value === "string" ? JSON.stringify(value) : value}`);
  }
  fs.writeFileSync(file, text);
}
