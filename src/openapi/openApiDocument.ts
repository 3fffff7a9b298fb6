import { isDeepStrictEqual } from "node:util";
import type { OpenApiDocument } from "./openApiTypes.js";
import type { RouteFamilyDocument } from "./routeFamily.js";

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
}

/**
 * Joins the route families into one OpenAPI v2 document. Two operations on the
 * same path and verb, or two different definitions under one name, are
 * mistakes of the tables or of a family writer and stop the build.
 */
export function assembleDocument(info: DocumentInfo, families: RouteFamilyDocument[]): OpenApiDocument {
  const document: OpenApiDocument = {
    swagger: "2.0",
    info,
    basePath: "/",
    consumes: ["application/json"],
    produces: ["application/json"],
    tags: [],
    paths: {},
    definitions: {},
  };
  const operationIds = new Set<string>();
  for (const family of families) {
    for (const tag of family.tags) {
      if (!document.tags.some((t) => t.name === tag.name)) document.tags.push(tag);
    }
    for (const [name, schema] of Object.entries(family.definitions)) {
      const known = document.definitions[name];
      if (known && !isDeepStrictEqual(known, schema)) throw new Error(`OpenAPI: two route families define ${name} differently`);
      document.definitions[name] = schema;
    }
    for (const { path, verb, operationId, operation } of family.operations) {
      const item = (document.paths[path] ??= {});
      if (item[verb]) throw new Error(`OpenAPI: ${verb.toUpperCase()} ${path} is defined twice`);
      item[verb] = { operationId: unique(operationId, operationIds), ...operation };
    }
  }
  // Drops the undefined members that optional fields leave, so that JSON and YAML agree.
  return JSON.parse(JSON.stringify(document)) as OpenApiDocument;
}

function unique(wanted: string, taken: Set<string>): string {
  let id = wanted;
  for (let n = 2; taken.has(id); n++) id = `${wanted}${n}`;
  taken.add(id);
  return id;
}
