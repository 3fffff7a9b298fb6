import type { Operation, Schema } from "./openApiTypes.js";

/** One operation of a family, before the document gives it its unique operationId. */
export interface FamilyOperation {
  path: string;
  verb: "get" | "post" | "put";
  /** The operationId wanted; the document appends a number when two families or routes want the same one. */
  operationId: string;
  operation: Omit<Operation, "operationId">;
}

/**
 * What a route family contributes to the OpenAPI document: its operations,
 * their tags and the definitions they reference. Each family names its
 * definitions in its own space, since the same proto type has a different
 * JSON form in each family (proto3 JSON for the gateway, amino JSON for legacy).
 */
export interface RouteFamilyDocument {
  tags: Array<{ name: string; description?: string }>;
  operations: FamilyOperation[];
  definitions: Record<string, Schema>;
}
