import { Codec } from "../codec/codec.js";
import { formatDocument, type DocumentFormat } from "../openapi/documentFormat.js";
import { writeSwaggerDocument } from "../openapi/swaggerDocument.js";
import { compileTables } from "../tables/compileTables.js";
import { useNames } from "../names/activeNames.js";
import { DEFAULT_NAMES } from "../names/namesTable.js";

/** The OpenAPI document that GET /swagger serves, as text, without starting anything. */
export function swaggerText(format: DocumentFormat, profile = DEFAULT_NAMES): string {
  useNames(profile);
  const codec = new Codec();
  return formatDocument(writeSwaggerDocument(compileTables(codec), codec.root), format);
}

export function printSwagger(format: DocumentFormat, profile = DEFAULT_NAMES): void {
  process.stdout.write(swaggerText(format, profile));
}
