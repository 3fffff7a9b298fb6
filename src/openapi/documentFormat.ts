import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export type DocumentFormat = "json" | "yaml";

export const FORMATS: readonly DocumentFormat[] = ["json", "yaml"];

export const CONTENT_TYPES: Record<DocumentFormat, string> = {
  json: "application/json",
  yaml: "application/yaml",
};

/** The document as text: 2-space JSON, or YAML with every shared object written out (no anchors). */
export function formatDocument(document: object, format: DocumentFormat): string {
  if (format === "json") return `${JSON.stringify(document, null, 2)}\n`;
  const { dump } = require("js-yaml") as typeof import("js-yaml"); // loaded when a YAML document is asked for, not at every start
  return dump(document, { noRefs: true, lineWidth: -1 });
}
