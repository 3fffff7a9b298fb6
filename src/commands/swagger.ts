import { Codec } from "../codec/codec.js";
import { formatDocument, type DocumentFormat } from "../openapi/documentFormat.js";
import { toOpenApi31 } from "../openapi/openApi31.js";
import { writeSwaggerDocument } from "../openapi/swaggerDocument.js";
import { compileTables } from "../tables/compileTables.js";
import { useNames } from "../names/activeNames.js";
import { DEFAULT_NAMES } from "../names/namesTable.js";

export type OpenApiVersion = "2.0" | "3.1";

/** The OpenAPI document that GET /swagger (2.0) or GET /openapi.json (3.1) serves, as text, without starting anything. */
export function swaggerText(format: DocumentFormat, profile = DEFAULT_NAMES, version: OpenApiVersion = "2.0"): string {
  useNames(profile);
  const codec = new Codec();
  const document = writeSwaggerDocument(compileTables(codec), codec.root);
  return formatDocument(version === "3.1" ? toOpenApi31(document) : document, format);
}

export function printSwagger(format: DocumentFormat, profile = DEFAULT_NAMES, version: OpenApiVersion = "2.0"): void {
  process.stdout.write(swaggerText(format, profile, version));
}
