/**
 * Build step (npm run build, after tsc and the other build steps): bundles dist/cli.js and the
 * packages it imports into dist/bundle/ (esbuild, ES modules split by dynamic import), which
 * bin/chain-rest.js runs. A start then loads a few dozen files instead of every module one by one:
 * finding, reading and compiling modules is most of a start's own work (docs/design/start-up.md).
 * The REST workers' entry is a second entry point, sharing the chunks. dist/ keeps every
 * module unbundled for anything else that imports them (tests, the other build steps).
 *
 *   node dist/build/writeBundle.js
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { BUNDLE_FLAG, BUNDLED_WORKER_NAME } from "../workers/restWorkerEntry.js";

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BUNDLE_DIR = path.join(DIST, "bundle");

/**
 * Packages left out of the bundle: native addons that load their binary themselves (classic-level is
 * bundled: its binding is found from __dirname, which ownLocationPlugin keeps). LMDB only serves the
 * REST workers and is loaded for them alone.
 */
const EXTERNAL = ["lmdb", "secp256k1", "msgpackr-extract"];

/** Files a package requires only when first needed (iconv-lite's large tables): left where they are, so a start does not parse them. */
const LAZY = [{ from: /[\\/]iconv-lite[\\/]lib[\\/]index\.js$/, request: "../encodings" }];

const keepLazyPlugin: esbuild.Plugin = {
  name: "keep-lazy",
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (!LAZY.some((lazy) => lazy.request === args.path && lazy.from.test(args.importer))) return undefined;
      const target = path.join(path.dirname(args.importer), args.path);
      return { path: "./" + path.relative(BUNDLE_DIR, target).split(path.sep).join("/"), external: true };
    });
  },
};

/**
 * Code that finds files relative to its own module (import.meta.url in ES modules, __dirname and
 * __filename in CommonJS packages) is given the location of the file it came from, so proto-root.json,
 * the built validators, package.json, swagger-ui's files etc. are found where they were.
 */
const ownLocationPlugin: esbuild.Plugin = {
  name: "own-location",
  setup(build) {
    build.onLoad({ filter: /\.(js|cjs|mjs)$/ }, async (args) => {
      let text = await fs.promises.readFile(args.path, "utf8");
      const fromBundle = JSON.stringify(path.relative(BUNDLE_DIR, args.path).split(path.sep).join("/"));
      if (text.includes("import.meta.url")) text = text.replaceAll("import.meta.url", `new URL(${fromBundle}, import.meta.url).href`);
      if (/\b__(dirname|filename)\b/.test(text)) {
        text = `var __filename = __bundledFile(${fromBundle}), __dirname = __bundledDir(__filename);\n${text}`;
      }
      return { contents: text, loader: "js" };
    });
  },
};

/** Each output file's prelude: `require` for the CommonJS packages inside, and the helpers above. */
const PRELUDE = [
  'import { createRequire as __createRequire } from "node:module";',
  'import { fileURLToPath as __fileURLToPath } from "node:url";',
  'import { dirname as __bundledDir } from "node:path";',
  "const require = __createRequire(import.meta.url);",
  "const __bundledFile = (fromBundle) => __fileURLToPath(new URL(fromBundle, import.meta.url));",
].join(" ");

fs.rmSync(BUNDLE_DIR, { recursive: true, force: true });
await esbuild.build({
  // the REST workers' entry too, so they run the same chunks (src/workers/restWorkerEntry.ts); both at the bundle's top,
  // where ownLocationPlugin's paths are relative to
  entryPoints: { cli: path.join(DIST, "cli.js"), [BUNDLED_WORKER_NAME]: path.join(DIST, "workers", "restWorker.js") },
  define: { [BUNDLE_FLAG]: "true" },
  outdir: BUNDLE_DIR,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  preserveSymlinks: true, // paths inside the package, also where node_modules is a link
  target: "node20",
  external: EXTERNAL,
  // readable stack traces: names and lines kept; the maps lead back to dist/'s modules (node --enable-source-maps)
  sourcemap: "linked",
  banner: { js: PRELUDE },
  plugins: [keepLazyPlugin, ownLocationPlugin],
  logLevel: "warning",
});
