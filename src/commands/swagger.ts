import { Codec } from "../codec/codec.js";
import { formatDocument, type DocumentFormat } from "../openapi/documentFormat.js";
import { writeSwaggerDocument } from "../openapi/swaggerDocument.js";
import { compileTables } from "../tables/compileTables.js";

/** The OpenAPI document that GET /swagger serves, as text, without starting anything. */
export function swaggerText(format: DocumentFormat): string {
  const codec = new Codec();
  return formatDocument(writeSwaggerDocument(compileTables(codec), codec.root), format);
}

export function printSwagger(format: DocumentFormat): void {
  process.stdout.write(swaggerText(format));
}
