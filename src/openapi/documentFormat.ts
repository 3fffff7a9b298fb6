import { dump } from "js-yaml";

export type DocumentFormat = "json" | "yaml";

export const FORMATS: readonly DocumentFormat[] = ["json", "yaml"];

export const CONTENT_TYPES: Record<DocumentFormat, string> = {
  json: "application/json",
  yaml: "application/yaml",
};

/** The document as text: 2-space JSON, or YAML with every shared object written out (no anchors). */
export function formatDocument(document: object, format: DocumentFormat): string {
  return format === "json" ? `${JSON.stringify(document, null, 2)}\n` : dump(document, { noRefs: true, lineWidth: -1 });
}
