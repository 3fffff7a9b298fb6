import { fileURLToPath } from "node:url";

/** The REST worker's entry in the bundle: dist/bundle/<name>.js, a second entry point of the build (src/build/writeBundle.ts). */
export const BUNDLED_WORKER_NAME = "restWorker";

/** An identifier the bundle's build defines as `true` (esbuild `define`); in dist/'s modules it is not declared at all. */
export const BUNDLE_FLAG = "CHAIN_REST_BUNDLE";
declare const CHAIN_REST_BUNDLE: boolean | undefined;

/**
 * The file the REST workers run: the bundle's worker entry when this process runs from the bundle
 * (so the workers share its chunks and load a few dozen files, not every module), else
 * dist/workers/restWorker.js beside this module. In the bundle, import.meta.url is this module's
 * place in dist/ (writeBundle.ts's own-location plugin), hence the path through ../bundle/.
 */
export function restWorkerEntry(): string {
  const bundled = typeof CHAIN_REST_BUNDLE !== "undefined" && CHAIN_REST_BUNDLE;
  return fileURLToPath(new URL(bundled ? `../bundle/${BUNDLED_WORKER_NAME}.js` : "./restWorker.js", import.meta.url));
}
