import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import { LRUCache } from "lru-cache";
import { pricingSchema, RESULT_SCHEMA } from "./schemas.js";
import { newAjv } from "../../../util/lazyAjv.js";

/**
 * validateDocument of irismod v1.3.1 types/schema.go: a JSON document checked against a JSON
 * schema (gojsonschema there, ajv here), the first error as gojsonschema words it
 * ("<field>: <description>", the field "(root)" for the document itself). The schemas are
 * draft-04; the keywords they use mean the same in ajv's default draft.
 */
let shared: Ajv | undefined;
/** The validator of service documents, made at the first document checked (not at every start). */
function ajv(): Ajv {
  if (!shared) {
    shared = newAjv({ strict: false, allErrors: false, validateSchema: false });
    shared.addFormat("date-time", (text: string) => !Number.isNaN(Date.parse(text)) && /^\d{4}-\d{2}-\d{2}T/.test(text));
  }
  return shared;
}

const INPUT_SCHEMA = { type: "object", properties: { header: { type: "object" }, body: { type: "object" } }, required: ["header"] };
/**
 * Compiled schemas by their text. The schemas come from transactions (service definitions), so
 * the least recently used leave past MAX_COMPILED, and ajv forgets its own copy of them too.
 */
export const MAX_COMPILED = 1000;
const compiled = new LRUCache<string, { validate: ValidateFunction; schema: object }>({
  max: MAX_COMPILED,
  dispose: ({ schema }) => ajv().removeSchema(schema),
});

function compile(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let entry = compiled.get(key);
  if (!entry) {
    const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
    entry = { validate: ajv().compile(rest), schema: rest };
    compiled.set(key, entry);
  }
  return entry.validate;
}

/** The first schema error of a document as gojsonschema's ResultError.String(), or undefined when it is valid. */
export function documentError(schema: object, document: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(document);
  } catch (err) {
    return (err as Error).message;
  }
  const validate = compile(schema);
  if (validate(value)) return undefined;
  return describe(validate.errors![0]!);
}

function describe(error: ErrorObject): string {
  const path = error.instancePath.split("/").filter(Boolean).join(".");
  const field = (name?: string) => [path, name].filter(Boolean).join(".") || "(root)";
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${field()}: ${String(params.missingProperty)} is required`;
    case "additionalProperties":
      return `${field()}: Additional property ${String(params.additionalProperty)} is not allowed`;
    case "type":
      return `${field()}: Invalid type. Expected: ${String(params.type)}, given: ${jsonType(error.data)}`;
    case "pattern":
      return `${field()}: Does not match pattern '${String(params.pattern)}'`;
    case "enum":
      return `${field()}: ${field()} must be one of the following: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "format":
      return `${field()}: Does not match format '${String(params.format)}'`;
    default:
      return `${field()}: ${error.message ?? error.keyword}`;
  }
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

const parseSchema = (text: string) => JSON.parse(text) as object;

export const pricingDocumentError = (pricing: string) => documentError(parseSchema(pricingSchema("")), pricing);
export const resultDocumentError = (result: string) => documentError(parseSchema(RESULT_SCHEMA), result);
/** InputSchema and OutputSchema are the same object schema: a `header` object is required, `body` an object. */
export const inputDocumentError = (input: string) => documentError(INPUT_SCHEMA, input);
/** @alias of inputDocumentError (the same schema). */
export const outputDocumentError = inputDocumentError;

/** Whether a schema compiles (validateInputSchema / validateOutputSchema: gojsonschema.NewSchema). */
export function schemaCompileError(schema: unknown): string | undefined {
  try {
    const { $schema: _ignored, ...rest } = (schema ?? {}) as Record<string, unknown>;
    ajv().compile(rest);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
