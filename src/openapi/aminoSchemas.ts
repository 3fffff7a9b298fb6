import protobuf from "protobufjs";
import { customType, fieldKind, isAny, isDuration, isNonNullable, isTimestamp, typeName, type FieldKind } from "../codec/fieldKinds.js";
import type { AminoTransforms, AminoTypeRules } from "../tables/aminoTransforms.js";
import type { Schema } from "./openApiTypes.js";
import { INT_PATTERN, sharedScalarSchema } from "./scalarSchemas.js";
import { lookupType } from "../codec/typeRegistry.js";

const PREFIX = "legacy.";
const AMINO_ANY = `${PREFIX}AminoAny`;
const STD_TX = `${PREFIX}StdTx`;
const UNSIGNED_64 = new Set(["uint64", "fixed64"]);

/**
 * OpenAPI v2 schemas of proto messages in the amino JSON form the legacy
 * family writes (src/codec/amino/aminoJson.ts with amino-transforms.yaml):
 * fields omitted when empty unless kept, dropped and renamed fields, 64-bit
 * integers as strings, enums and 32-bit integers as numbers, Dec/Int as
 * patterned strings, interfaces as {type, value}, a Tx as its StdTx.
 * Definitions are named "legacy.<proto type>".
 */
export class AminoSchemas {
  readonly definitions: Record<string, Schema> = {};

  constructor(
    readonly transforms: AminoTransforms,
    private readonly root: protobuf.Root,
  ) {
    this.definitions[AMINO_ANY] = {
      type: "object",
      title: "an amino interface value",
      description:
        'A value of a registered type: "type" is its amino name (e.g. core-sdk/MsgSend, consensus/PubKeySecp256k1), "value" its amino JSON (a key: the raw key bytes in base64).',
      properties: { type: { type: "string" }, value: {} },
      required: ["type", "value"],
    };
  }

  /** A message at the top level of a legacy answer: wrapped as {type, value} when its type has an amino name. */
  top(type: protobuf.Type, wrap = true): Schema {
    if (isAny(type)) return this.ref(AMINO_ANY);
    const name = this.transforms.names.get(typeName(type));
    if (!wrap || !name || this.rules(type)?.as === "std-tx") return this.message(type);
    return { type: "object", properties: { type: { type: "string", enum: [name] }, value: this.message(type) }, required: ["type", "value"] };
  }

  message(type: protobuf.Type): Schema {
    if (isTimestamp(type)) return { type: "string", format: "date-time" };
    if (isDuration(type)) return { type: "string", pattern: INT_PATTERN, description: "nanoseconds" };
    if (isAny(type)) return this.ref(AMINO_ANY);
    if (this.rules(type)?.as === "std-tx") return this.stdTx();
    const name = PREFIX + typeName(type);
    if (!(name in this.definitions)) {
      this.definitions[name] = {}; // placeholder first: recursive messages refer back to it
      this.definitions[name] = this.messageSchema(type);
    }
    return this.ref(name);
  }

  /** The schema of one field as its owner's rules write it (a field picked as a result). */
  field(owner: protobuf.Type, field: protobuf.Field): Schema {
    const rules = this.rules(owner);
    const schema = field.repeated ? { type: "array" as const, items: this.value(field, rules) } : this.value(field, rules);
    return rules?.nulls.has(field.name) || (!field.repeated && fieldKind(field).kind === "message" && !isNonNullable(field)) ? nullable(schema) : schema;
  }

  stdTx(): Schema {
    if (!(STD_TX in this.definitions)) {
      const coin = this.message(lookupType(this.root, "core.base.v1beta1.Coin"));
      this.definitions[STD_TX] = {
        type: "object",
        title: "StdTx (the value of {type: core-sdk/StdTx, value})",
        properties: {
          msg: { type: "array", items: this.ref(AMINO_ANY) },
          fee: {
            type: "object",
            properties: { amount: { type: "array", items: coin }, gas: { type: "string", format: "uint64" } },
            required: ["amount", "gas"],
          },
          signatures: {
            type: "array",
            "x-nullable": true,
            description: "null or empty before signing; [] for a transaction signed in another mode",
            items: {
              type: "object",
              properties: { pub_key: nullable(this.ref(AMINO_ANY)), signature: { type: "string", format: "byte" } },
              required: ["pub_key", "signature"],
            },
          },
          memo: { type: "string" },
          timeout_height: { type: "string", format: "uint64" },
        },
        required: ["msg", "fee", "signatures", "memo", "timeout_height"],
      };
    }
    return this.ref(STD_TX);
  }

  private rules(type: protobuf.Type): AminoTypeRules | undefined {
    return this.transforms.types.get(typeName(type));
  }

  private ref(name: string): Schema {
    return { $ref: `#/definitions/${name}` };
  }

  private messageSchema(type: protobuf.Type): Schema {
    const rules = this.rules(type);
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    this.fields(type, rules, properties, required);
    for (const [key, value] of rules?.fixed ?? []) {
      properties[key] = { ...jsonType(value), description: `always ${JSON.stringify(value)}` };
      if (!required.includes(key)) required.push(key);
    }
    return {
      type: "object",
      title: typeName(type),
      description: "amino JSON; a field that is not required is left out when empty",
      properties,
      ...(required.length > 0 ? { required } : {}),
    };
  }

  private fields(type: protobuf.Type, rules: AminoTypeRules | undefined, properties: Record<string, Schema>, required: string[]): void {
    for (const field of type.fieldsArray) {
      if (rules?.drop.has(field.name)) continue;
      if (rules?.flatten.has(field.name)) {
        this.fields(field.resolvedType as protobuf.Type, rules, properties, required);
        continue;
      }
      const key = rules?.rename.get(field.name) ?? field.name;
      if (rules?.fixed.has(key)) continue;
      const schema = field.repeated ? { type: "array" as const, items: this.value(field, rules) } : this.value(field, rules);
      const nulls = rules?.nulls.has(field.name) ?? false;
      properties[key] =
        nulls || (!field.repeated && fieldKind(field).kind === "message" && !isNonNullable(field) && (rules?.keep === "all" || rules?.keep.has(field.name)))
          ? nullable(schema)
          : schema;
      if (nulls || rules?.keep === "all" || rules?.keep.has(field.name) || alwaysWritten(field)) required.push(key);
    }
  }

  private value(field: protobuf.Field, rules: AminoTypeRules | undefined): Schema {
    const kind: FieldKind = fieldKind(field);
    if (kind.kind === "int64" && customType(field) === undefined && rules?.numbers.has(field.name)) {
      return { type: "integer", format: UNSIGNED_64.has(field.type) ? "uint64" : "int64" };
    }
    const shared = sharedScalarSchema(field);
    if (shared) return shared;
    switch (kind.kind) {
      case "bytes":
        if (rules?.hex.has(field.name)) return { type: "string", pattern: "^([0-9A-F]{2})*$", description: "uppercase hex" };
        return { type: "string", format: "byte", description: "standard base64" };
      case "enum": {
        const names = Object.entries(kind.type.values)
          .map(([name, n]) => `${n} ${name}`)
          .join(", ");
        return {
          type: "integer",
          format: "int32",
          enum: [...new Set(Object.values(kind.type.values))],
          description: `enum ${typeName(kind.type)} by number: ${names}`,
        };
      }
      case "message":
        return this.message(kind.type);
      default:
        throw new Error(`no schema for field ${field.fullName} of type ${field.type}`);
    }
  }
}

function alwaysWritten(field: protobuf.Field): boolean {
  if (!isNonNullable(field)) return false;
  const kind = fieldKind(field);
  return field.repeated || kind.kind === "message" || ((kind.kind === "string" || kind.kind === "bytes") && kind.custom !== undefined);
}

export function nullable(schema: Schema): Schema {
  return schema.$ref ? { allOf: [schema], "x-nullable": true } : { ...schema, "x-nullable": true };
}

function jsonType(value: unknown): Schema {
  if (typeof value === "string") return { type: "string" };
  if (typeof value === "number") return { type: "number" };
  if (typeof value === "boolean") return { type: "boolean" };
  if (Array.isArray(value)) return { type: "array", items: {} };
  return { type: "object" };
}
