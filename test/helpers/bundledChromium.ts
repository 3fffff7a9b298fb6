import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import Chromium from "@sparticuz/chromium";

/** How to launch the Chromium that the `@sparticuz/chromium` dev dependency ships in its tarball. */
export interface BundledChromium {
  executablePath: string;
  args: string[];
  /** The browser's environment: a fontconfig file naming the fonts unpacked beside it (without fonts it aborts on the first text). */
  env: Record<string, string>;
}

const packageDir = path.join(path.dirname(createRequire(import.meta.url).resolve("@sparticuz/chromium")), "..");
const packageVersion = (JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version: string }).version;
/** node_modules/.cache: `npm ci` clears it, so an upgraded package never meets an older unpacked browser. */
const CACHE = path.resolve("node_modules", ".cache", `chain-rest-chromium-${packageVersion}`);
/**
 * The package's own fonts.conf names /tmp/fonts, where it would have unpacked them; this one names
 * the cache. Written last, so a cache folder that has it is complete.
 */
const FONTS_CONF = "chain-rest-fonts.conf";

/**
 * The package's `executablePath()` unpacks the browser, its fonts and its
 * software GL into `os.tmpdir()` (shared by every process, and reused whatever
 * version left it there). Here it unpacks into a private staging folder that is
 * then renamed into a per-version cache, so that a run that was cut mid-way, or
 * two runs at once, never launch a half-written binary.
 */
export async function bundledChromium(): Promise<BundledChromium> {
  if (!fs.existsSync(path.join(CACHE, FONTS_CONF))) await unpackInto(CACHE);
  return {
    executablePath: path.join(CACHE, "chromium"),
    args: Chromium.args,
    env: { FONTCONFIG_FILE: path.join(CACHE, FONTS_CONF) },
  };
}

async function unpackInto(target: string): Promise<void> {
  // a folder without the file is not ours to trust (a copy from before the file existed): replace it
  if (!fs.existsSync(path.join(target, FONTS_CONF))) fs.rmSync(target, { recursive: true, force: true });
  const staging = `${target}.staging-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  const tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = staging; // os.tmpdir() is where the package unpacks
  try {
    await Chromium.executablePath();
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  }
  const conf = `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${target}/fonts</dir>\n  <cachedir>${target}/fonts-cache</cachedir>\n</fontconfig>\n`;
  fs.writeFileSync(path.join(staging, FONTS_CONF), conf);
  try {
    fs.renameSync(staging, target);
  } catch (error) {
    // another run finished first: its copy is as good as ours
    fs.rmSync(staging, { recursive: true, force: true });
    if (!fs.existsSync(path.join(target, FONTS_CONF))) throw error;
  }
}
