import type { BodyParameter, OpenApiDocument, Operation, Response, Schema, SimpleParameter } from "./openApiTypes.js";

/** A JSON Schema 2020-12 schema, as OpenAPI 3.1 takes it. */
type JsonSchema = { [key: string]: unknown };

interface OpenApi31Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags: string[];
  parameters: JsonSchema[];
  requestBody?: JsonSchema;
  responses: Record<string, JsonSchema>;
  deprecated?: boolean;
}

export interface OpenApi31Document {
  openapi: "3.1.0";
  jsonSchemaDialect: string;
  info: OpenApiDocument["info"];
  servers: Array<{ url: string }>;
  tags: OpenApiDocument["tags"];
  paths: Record<string, Record<string, OpenApi31Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

const DIALECT = "https://json-schema.org/draft/2020-12/schema";

/**
 * The OpenAPI 3.1 form of the v2 document: the same operations, parameters
 * and messages, the schemas in JSON Schema 2020-12 (a value that may be null
 * is typed with "null" instead of v2's x-nullable, examples are lists, a $ref
 * stands beside other keywords). Written from the v2 document, so whatever a
 * route family adds there is in both. Path parameters carry an example value
 * that fits them.
 */
export function toOpenApi31(document: OpenApiDocument): OpenApi31Document {
  const paths: OpenApi31Document["paths"] = {};
  for (const [path, item] of Object.entries(document.paths)) {
    paths[path] = Object.fromEntries(Object.entries(item).map(([verb, operation]) => [verb, operation31(operation, document)]));
  }
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: DIALECT,
    info: document.info,
    servers: [{ url: document.basePath }],
    tags: document.tags,
    paths,
    components: { schemas: Object.fromEntries(Object.entries(document.definitions).map(([name, schema]) => [name, schema31(schema)])) },
  };
}

function operation31(operation: Operation, document: OpenApiDocument): OpenApi31Operation {
  const { parameters, responses, consumes, produces, ...rest } = operation;
  const body = parameters.find((p): p is BodyParameter => p.in === "body");
  const mediaTypes = produces ?? document.produces;
  return {
    ...rest,
    parameters: parameters.filter((p): p is SimpleParameter => p.in !== "body").map(parameter31),
    ...(body
      ? {
          requestBody: {
            required: body.required,
            description: body.description,
            content: Object.fromEntries((consumes ?? document.consumes).map((type) => [type, { schema: schema31(body.schema) }])),
          },
        }
      : {}),
    responses: Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, response31(response, mediaTypes)])),
  };
}

function parameter31(parameter: SimpleParameter): JsonSchema {
  const { name, in: place, required, description, collectionFormat, type, format, pattern, enum: values, minimum, items } = parameter;
  const schema = dropUndefined({ type, format, pattern, enum: values, minimum, ...(items ? { items: dropUndefined({ ...items }) } : {}) });
  // csv lists are comma-separated (explode: false); multi lists repeat the key (form, explode: true)
  const style =
    collectionFormat === "csv"
      ? { style: place === "query" ? "form" : "simple", explode: false }
      : collectionFormat === "multi"
        ? { style: "form", explode: true }
        : {};
  const example = place === "path" ? exampleValue(parameter) : undefined;
  return dropUndefined({ name, in: place, required, description, schema, ...style, example });
}

function response31(response: Response, mediaTypes: string[]): JsonSchema {
  const headers = response.headers
    ? Object.fromEntries(
        Object.entries(response.headers).map(([name, { description, ...schema }]) => [name, dropUndefined({ description, schema: dropUndefined(schema) })]),
      )
    : undefined;
  const content = response.schema ? Object.fromEntries(mediaTypes.map((type) => [type, { schema: schema31(response.schema!) }])) : undefined;
  return dropUndefined({ description: response.description, headers, content });
}

/** A v2 schema in JSON Schema 2020-12. Keywords this writer does not know are kept as they are. */
function schema31(schema: Schema): JsonSchema {
  const { $ref, "x-nullable": nullable, example, items, properties, additionalProperties, allOf, ...rest } = schema;
  const out: JsonSchema = { ...rest };
  if ($ref !== undefined) out.$ref = $ref.replace(/^#\/definitions\//, "#/components/schemas/");
  if (example !== undefined) out.examples = [example];
  if (items) out.items = schema31(items);
  if (properties) out.properties = Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, schema31(p)]));
  if (additionalProperties !== undefined)
    out.additionalProperties = typeof additionalProperties === "boolean" ? additionalProperties : schema31(additionalProperties);
  if (allOf) out.allOf = allOf.map(schema31);
  return nullable ? orNull(out) : out;
}

/** The schema or JSON null: "null" joins a plain type; v2's allOf wrapper of a $ref becomes anyOf [the $ref, null]. */
function orNull(schema: JsonSchema): JsonSchema {
  const keys = Object.keys(schema);
  if (keys.length === 1 && Array.isArray(schema.allOf) && schema.allOf.length === 1) return { anyOf: [schema.allOf[0], { type: "null" }] };
  if (typeof schema.type === "string" && schema.$ref === undefined && schema.allOf === undefined) {
    return { ...schema, type: [schema.type, "null"], ...(Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {}) };
  }
  return { anyOf: [schema, { type: "null" }] };
}

/** A value that fits a path parameter: its type, its enum and its pattern (undefined when none of the candidates fits). */
function exampleValue(parameter: Pick<SimpleParameter, "name" | "type" | "format" | "pattern" | "enum" | "items">): string | undefined {
  if (parameter.enum) return String(parameter.enum[0]);
  if (parameter.type === "array" && parameter.items) return exampleValue({ name: parameter.name, ...parameter.items });
  const candidates =
    parameter.type === "integer" || parameter.format === "int64" || parameter.format === "uint64"
      ? ["1"]
      : parameter.type === "boolean"
        ? ["true"]
        : parameter.format === "byte"
          ? ["AQID"]
          : parameter.format === "date-time"
            ? ["2021-03-01T12:00:00Z"]
            : [`${parameter.name.replace(/\W/g, "_")}1`, "1", "0a1b", "0.100000000000000000", "1s", "prefix1qqqqqqqq"];
  return candidates.find((value) => !parameter.pattern || new RegExp(parameter.pattern).test(value));
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
