import fs from "node:fs";
import path from "node:path";
import type { Context, Middleware, Next } from "koa";
import { GatewayError, GrpcCode } from "../http/grpcStatus.js";
import { CONTENT_TYPES, FORMATS, formatDocument, type DocumentFormat } from "./documentFormat.js";
import type { OpenApiDocument } from "./openApiTypes.js";
import { toOpenApi31 } from "./openApi31.js";
import { swaggerUiFile } from "./swaggerUiFiles.js";

const OPENAPI_31_PATH = "/openapi.json";

const YAML_TYPES = ["application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml"];

/**
 * GET /swagger: the OpenAPI document (JSON; YAML for `Accept: application/yaml`
 * or `?format=yaml`). GET /swagger/: the Swagger UI pointed at it.
 * GET /openapi.json: the same document as OpenAPI 3.1 (openApi31.ts).
 * With api.swagger = false both answer 404 NotFound in the gateway's error
 * body, rather than the 501 of unknown paths, so that the answer says the
 * file exists but is switched off (/openapi.json too). Other verbs fall through to the gateway (501).
 * `writeDocument` is null when api.swagger is false; the document is written
 * when first asked for (a large document a server that is never asked need not hold).
 */
export function swaggerRoutes(writeDocument: (() => OpenApiDocument) | null): Middleware {
  let document: OpenApiDocument | undefined;
  const texts = new Map<DocumentFormat | "3.1", string>();
  const text = (format: DocumentFormat | "3.1") => {
    document ??= writeDocument!();
    if (!texts.has(format)) texts.set(format, format === "3.1" ? formatDocument(toOpenApi31(document), "json") : formatDocument(document, format));
    return texts.get(format)!;
  };
  const serve = (ctx: Context): void => {
    if (!writeDocument) throw new GatewayError(GrpcCode.NotFound, "Not Found: the OpenAPI file is not served (api.swagger = false in app.toml)");
    if (ctx.path === OPENAPI_31_PATH) {
      ctx.type = CONTENT_TYPES.json;
      ctx.body = text("3.1");
      return;
    }
    if (ctx.path === "/swagger") {
      const format = requestedFormat(ctx);
      ctx.set("Vary", "Accept");
      ctx.type = CONTENT_TYPES[format];
      ctx.body = text(format);
      return;
    }
    const file = swaggerUiFile(ctx.path.slice("/swagger/".length));
    if (!file) throw new GatewayError(GrpcCode.NotFound, `Not Found: ${ctx.path} is not a file of the Swagger UI`);
    if (file.kind === "text") {
      ctx.type = ".js";
      ctx.body = file.text;
    } else {
      ctx.type = path.extname(file.path);
      ctx.body = fs.createReadStream(file.path);
    }
  };
  // every request passes here: the others go on without an await of their own
  return (ctx: Context, next: Next) => {
    const under = ctx.path === "/swagger" || ctx.path.startsWith("/swagger/") || ctx.path === OPENAPI_31_PATH;
    if (!under || (ctx.method !== "GET" && ctx.method !== "HEAD")) return next() as Promise<void>;
    serve(ctx);
    return Promise.resolve();
  };
}

function requestedFormat(ctx: Context): DocumentFormat {
  const asked = ctx.query.format;
  if (asked !== undefined) {
    if (typeof asked === "string" && (FORMATS as string[]).includes(asked)) return asked as DocumentFormat;
    throw new GatewayError(GrpcCode.InvalidArgument, `format must be one of ${FORMATS.join(", ")}`);
  }
  // JSON unless the client prefers a YAML type (a browser's */* gets JSON).
  const preferred = ctx.accepts("application/json", ...YAML_TYPES);
  return typeof preferred === "string" && YAML_TYPES.includes(preferred) ? "yaml" : "json";
}
