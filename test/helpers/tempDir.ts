import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** A fresh temporary folder, removed after the current test file. */
export function tempDir(prefix = "chain-rest-test-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function writeFile(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}
