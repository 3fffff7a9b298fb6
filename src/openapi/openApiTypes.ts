/** The parts of OpenAPI v2 (Swagger 2.0) that the writer produces. */

export interface Schema {
  $ref?: string;
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean";
  format?: string;
  pattern?: string;
  enum?: Array<string | number>;
  minimum?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  allOf?: Schema[];
  title?: string;
  description?: string;
  example?: unknown;
  /** v2 has no null type: a value that may be JSON null is marked with this vendor extension. */
  "x-nullable"?: boolean;
}

/** A non-body parameter: path, query or header. */
export interface SimpleParameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description?: string;
  type: "string" | "integer" | "number" | "boolean" | "array";
  format?: string;
  pattern?: string;
  enum?: Array<string | number>;
  minimum?: number;
  items?: { type: "string" | "integer" | "number" | "boolean"; format?: string; enum?: Array<string | number>; minimum?: number };
  collectionFormat?: "csv" | "multi";
}

export interface BodyParameter {
  name: string;
  in: "body";
  required: boolean;
  description?: string;
  schema: Schema;
}

export type Parameter = SimpleParameter | BodyParameter;

export interface Response {
  description: string;
  schema?: Schema;
  headers?: Record<string, { type: "string" | "integer"; format?: string; description?: string }>;
}

export interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags: string[];
  produces?: string[];
  consumes?: string[];
  parameters: Parameter[];
  responses: Record<string, Response>;
  deprecated?: boolean;
}

type PathItem = Partial<Record<"get" | "post" | "put", Operation>>;

export interface OpenApiDocument {
  swagger: "2.0";
  info: { title: string; version: string; description?: string };
  basePath: string;
  consumes: string[];
  produces: string[];
  tags: Array<{ name: string; description?: string }>;
  paths: Record<string, PathItem>;
  definitions: Record<string, Schema>;
}
