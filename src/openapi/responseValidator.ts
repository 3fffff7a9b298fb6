import { Ajv, type ValidateFunction } from "ajv";
import type { OpenApiDocument, Schema } from "./openApiTypes.js";

const DOCUMENT_ID = "openapi";

/**
 * Checks answers against the response schemas of an OpenAPI v2 document with
 * ajv. The v2 schemas become JSON Schema (draft-07): `x-nullable` becomes
 * "or null", vendor extensions and examples are dropped, and the formats the
 * writer uses (int64, uint64, int32, uint32, byte, date-time, float, double)
 * are checked for real.
 */
export class ResponseValidator {
  private readonly ajv = new Ajv({ allErrors: true, strict: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema({ definitions: mapValues(document.definitions, toJsonSchema) }, DOCUMENT_ID);
  }

  /** The problems of `body` as the answer `status` of an operation (empty when it fits); throws when the document has no such answer. */
  check(verb: "get" | "post" | "put", path: string, status: number, body: unknown): string[] {
    const key = `${verb} ${path} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      const responses = this.document.paths[path]?.[verb]?.responses;
      if (!responses) throw new Error(`the document has no operation ${verb.toUpperCase()} ${path}`);
      const schema = (responses[String(status)] ?? responses.default)?.schema;
      if (!schema) throw new Error(`${verb.toUpperCase()} ${path} documents no body for status ${status}`);
      validate = this.ajv.compile(toJsonSchema(schema));
      this.compiled.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || "(body)"} ${e.message ?? ""}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
  }
}

/** One v2 schema as JSON Schema; references point into the document schema registered under DOCUMENT_ID. */
function toJsonSchema(schema: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith("x-") || key === "example") continue;
    if (key === "$ref") out.$ref = (value as string).replace(/^#/, `${DOCUMENT_ID}#`);
    else if (key === "items") out.items = toJsonSchema(value as Schema);
    else if (key === "allOf") out.allOf = (value as Schema[]).map(toJsonSchema);
    else if (key === "properties") out.properties = mapValues(value as Record<string, Schema>, toJsonSchema);
    else if (key === "additionalProperties") out.additionalProperties = typeof value === "boolean" ? value : toJsonSchema(value as Schema);
    else out[key] = value;
  }
  if (!schema["x-nullable"]) return out;
  const { title, description, ...rest } = out;
  return { ...(title ? { title } : {}), ...(description ? { description } : {}), anyOf: [{ type: "null" }, rest] };
}

function addFormats(ajv: Ajv): void {
  const integerText = (max: bigint, signed: boolean) => (text: string) =>
    (signed ? /^-?\d+$/ : /^\d+$/).test(text) && BigInt(text) < max && BigInt(text) >= (signed ? -max : 0n);
  ajv.addFormat("int64", { type: "string", validate: integerText(2n ** 63n, true) });
  ajv.addFormat("uint64", { type: "string", validate: integerText(2n ** 64n, false) });
  ajv.addFormat("int32", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat("uint32", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= 0 && n < 2 ** 32 });
  ajv.addFormat("float", { type: "number", validate: () => true });
  ajv.addFormat("double", { type: "number", validate: () => true });
  ajv.addFormat("byte", /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
  ajv.addFormat("date-time", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/);
}

function mapValues<T, U>(record: Record<string, T>, fn: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v)]));
}
