import { Codec } from "../codec/codec.js";
import { formatDocument, type DocumentFormat } from "../gateway/swagger/documentFormat.js";
import { writeSwaggerDocument } from "../gateway/swagger/swaggerDocument.js";
import { compileTables } from "../tables/compileTables.js";

/** Prints the OpenAPI document that GET /swagger serves, without starting anything. */
export function printSwagger(format: DocumentFormat): void {
  const codec = new Codec();
  process.stdout.write(formatDocument(writeSwaggerDocument(compileTables(codec), codec.root), format));
}
