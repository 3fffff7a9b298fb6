import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const made: string[] = [];

// Removed when the test process ends, after every after-hook has stopped the processes using them.
process.on("exit", () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});

/** A fresh temporary folder, removed when the test run ends. */
export function tempDir(prefix = "chain-rest-test-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function writeFile(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}
