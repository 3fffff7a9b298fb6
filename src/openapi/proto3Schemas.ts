import protobuf from "protobufjs";
import { customType, fieldKind, isAny, isDuration, isNonNullable, isTimestamp, typeName, type FieldKind } from "../codec/fieldKinds.js";
import type { Schema } from "./openApiTypes.js";
import { DURATION_PATTERN, sharedScalarSchema } from "./scalarSchemas.js";

const ANY_DEFINITION = "google.protobuf.Any";

/**
 * OpenAPI v2 schemas of proto messages in the proto3 JSON form the gateway
 * writes (src/codec/json/renderProto3.ts): proto field names; every field
 * present except unset oneof members; 64-bit ints as strings; enums as names;
 * bytes as base64; Timestamp and Duration as text; Any as "@type" plus the
 * packed message's fields; an unset message or bytes field as null.
 * Each message becomes one definition named by its full proto name.
 */
export class Proto3Schemas {
  readonly definitions: Record<string, Schema> = {};

  /** A schema for a message type (a $ref, or an inline string for Timestamp/Duration). */
  message(type: protobuf.Type): Schema {
    if (isTimestamp(type)) return { type: "string", format: "date-time", example: "2021-03-01T12:00:00Z" };
    if (isDuration(type)) return { type: "string", pattern: DURATION_PATTERN, description: "seconds with an s suffix", example: "1814400s" };
    const name = isAny(type) ? ANY_DEFINITION : typeName(type);
    if (!(name in this.definitions)) {
      this.definitions[name] = {}; // placeholder first: recursive messages refer back to it
      this.definitions[name] = isAny(type) ? anySchema() : this.messageSchema(type);
    }
    return { $ref: `#/definitions/${name}` };
  }

  private messageSchema(type: protobuf.Type): Schema {
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const field of type.fieldsArray) {
      properties[field.name] = this.field(field);
      // Every field is written, defaults included, except the members of a oneof that are not set.
      if (!field.partOf) required.push(field.name);
    }
    const oneofs = type.oneofsArray.map((o) => `${o.name}: only the member that is set is present (${o.fieldsArray.map((f) => f.name).join(", ")})`);
    return {
      type: "object",
      title: typeName(type),
      ...(oneofs.length > 0 ? { description: `oneof ${oneofs.join("; ")}` } : {}),
      properties,
      ...(required.length > 0 ? { required } : {}),
    };
  }

  private field(field: protobuf.Field): Schema {
    const kind = fieldKind(field);
    if (field instanceof protobuf.MapField) return { type: "object", additionalProperties: this.value(kind, field) };
    if (field.repeated) return { type: "array", items: this.value(kind, field) };
    const schema = this.value(kind, field);
    if (!isNullable(field, kind)) return schema;
    // A $ref takes no siblings in v2, so a nullable message is wrapped.
    return schema.$ref ? { allOf: [schema], "x-nullable": true } : { ...schema, "x-nullable": true };
  }

  /** The schema of one value of the field (one element when repeated). */
  private value(kind: FieldKind, field: protobuf.Field): Schema {
    const shared = sharedScalarSchema(field);
    if (shared) return shared;
    switch (kind.kind) {
      case "bytes":
        return { type: "string", format: "byte", description: "standard base64" };
      case "enum":
        return { type: "string", enum: Object.keys(kind.type.values), description: `enum ${typeName(kind.type)}` };
      case "message":
        return this.message(kind.type);
      default:
        throw new Error(`no schema for field ${field.fullName} of type ${field.type}`);
    }
  }
}

/** The renderer writes null for an unset message unless gogoproto nullable=false, and for unset bytes. */
function isNullable(field: protobuf.Field, kind: FieldKind): boolean {
  if (kind.kind === "bytes") return customType(field) === undefined;
  return kind.kind === "message" && !isNonNullable(field);
}

function anySchema(): Schema {
  return {
    type: "object",
    title: ANY_DEFINITION,
    description:
      'A packed message: "@type" is its type URL and the fields of the message follow inline ' +
      '(a well-known type such as google.protobuf.Duration goes under "value"). An unset Any is {}.',
    properties: { "@type": { type: "string", description: "type URL, e.g. /core.auth.v1beta1.BaseAccount" } },
    additionalProperties: true,
  };
}
