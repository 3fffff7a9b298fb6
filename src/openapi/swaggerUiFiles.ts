import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** swagger-ui-dist's folder in node_modules: the UI is served from there, never from a CDN. */
const SWAGGER_UI_DIR = path.dirname(require.resolve("swagger-ui-dist/package.json"));

/** The files the UI's index.html loads (and the source maps of its scripts), by name under /swagger/. */
const DIST_FILES = [
  "index.html",
  "index.css",
  "swagger-ui.css",
  "swagger-ui.css.map",
  "swagger-ui-bundle.js",
  "swagger-ui-bundle.js.map",
  "swagger-ui-standalone-preset.js",
  "swagger-ui-standalone-preset.js.map",
  "favicon-16x16.png",
  "favicon-32x32.png",
];

/**
 * Replaces the distribution's initializer, which points at a demo document on
 * the internet. The document URL is relative ("../swagger" from /swagger/), so
 * the UI keeps working behind a proxy that mounts the server under a prefix;
 * the online validator badge is turned off, since the service must work offline.
 * Module tags start collapsed: with both families the document has some 250
 * operations, beyond which the UI would switch to a virtualized list that
 * renders only what is on screen.
 */
const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: new URL("../swagger", window.location.href).href,
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    docExpansion: "none",
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: "StandaloneLayout",
  });
};
`;

export type UiFile = { kind: "file"; path: string } | { kind: "text"; text: string };

/** The UI file served at /swagger/<name> ("" is the index page); undefined when there is none. */
export function swaggerUiFile(name: string): UiFile | undefined {
  if (name === "") return { kind: "file", path: path.join(SWAGGER_UI_DIR, "index.html") };
  if (name === "swagger-initializer.js") return { kind: "text", text: INITIALIZER };
  if (!DIST_FILES.includes(name)) return undefined;
  const file = path.join(SWAGGER_UI_DIR, name);
  return fs.existsSync(file) ? { kind: "file", path: file } : undefined;
}
