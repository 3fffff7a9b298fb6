import type protobuf from "protobufjs";
import { customType, fieldKind } from "../codec/fieldKinds.js";
import type { Schema } from "./openApiTypes.js";

const DEC_PATTERN = "^-?\\d+\\.\\d{18}$";
export const INT_PATTERN = "^-?\\d+$";
export const DURATION_PATTERN = "^-?\\d+(\\.\\d+)?s$";

const UNSIGNED = new Set(["uint64", "fixed64", "uint32", "fixed32"]);

export type ScalarSchema = Pick<Schema, "type" | "format" | "minimum" | "pattern" | "description" | "example">;

/**
 * The JSON form of the scalars that proto3 JSON, amino JSON and query
 * parameters write alike: sdk.Dec and sdk.Int as their text, 64-bit ints as
 * strings, 32-bit ints and floats as numbers, bools, strings. Bytes, enums
 * and messages differ between the families: for them this gives undefined.
 */
export function sharedScalarSchema(field: protobuf.Field): ScalarSchema | undefined {
  const custom = customType(field); // sdk.Dec / sdk.Int, in a string or a bytes field
  if (custom === "Dec") return { type: "string", pattern: DEC_PATTERN, description: "decimal with 18 fraction digits", example: "0.100000000000000000" };
  if (custom === "Int") return { type: "string", pattern: INT_PATTERN, description: "integer of any size", example: "1000" };
  const unsigned = UNSIGNED.has(field.type);
  switch (fieldKind(field).kind) {
    case "int64":
      return { type: "string", format: unsigned ? "uint64" : "int64" };
    case "int32":
      return unsigned ? { type: "integer", format: "uint32", minimum: 0 } : { type: "integer", format: "int32" };
    case "float":
      return { type: "number", format: field.type === "float" ? "float" : "double" };
    case "bool":
      return { type: "boolean" };
    case "string":
      return { type: "string" };
    default:
      return undefined;
  }
}
