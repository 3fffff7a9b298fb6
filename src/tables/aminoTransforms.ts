import path from "node:path";
import protobuf from "protobufjs";
import { loadValidatedYaml } from "./validatedYaml.js";
import { TableError } from "./loadYamlTable.js";
import { PACKAGE_ROOT } from "../util/paths.js";
import schema from "./schemas/amino-transforms.schema.json" with { type: "json" };
import type { AminoTransformsTable } from "./schemaTypes/aminoTransformsTable.js";
import { names, names as activeNames } from "../names/activeNames.js";

export const AMINO_TRANSFORMS_FILE = path.join(PACKAGE_ROOT, "amino-transforms.yaml");

/** How the fields of one proto type are written in amino JSON. */
export interface AminoTypeRules {
  /** Fields written even when empty; "all" for every field. */
  keep: Set<string> | "all";
  nulls: Set<string>;
  drop: Set<string>;
  rename: Map<string, string>;
  hex: Set<string>;
  ints: Set<string>;
  numbers: Set<string>;
  flatten: Set<string>;
  fixed: Map<string, unknown>;
  as?: "std-tx";
}

/** The compiled amino-transforms.yaml. */
export interface AminoTransforms {
  /** proto full name → amino name */
  names: Map<string, string>;
  /** amino name → proto full name (the names, plus the input aliases) */
  typesByName: Map<string, string>;
  /** proto full name → field rules */
  types: Map<string, AminoTypeRules>;
  /** Public-key types whose amino value is the key bytes themselves (raw_keys). */
  rawKeyTypes: Set<string>;
}

type RawTransforms = AminoTransformsTable;

export function loadAminoTransforms(file = AMINO_TRANSFORMS_FILE): AminoTransforms {
  // the naming profile's words, applied as the table is read (the file is never copied)
  const data = loadValidatedYaml(
    file,
    schema,
    (message) => new TableError(message),
    (raw) => names().deep(raw),
  );
  return compile(data as RawTransforms, path.basename(file));
}

function compile(table: RawTransforms, file: string): AminoTransforms {
  const names = new Map(Object.entries(table.names ?? {}));
  const typesByName = new Map<string, string>();
  for (const [type, name] of names) {
    const other = typesByName.get(name);
    if (other) throw new TableError(`${file}: key "names.${type}": the amino name ${name} is already the name of ${other}`);
    typesByName.set(name, type);
  }
  for (const [name, type] of Object.entries(table.input_aliases ?? {})) {
    if (!activeNames().isDefault && typesByName.get(name) === type) continue; // a profile whose names are the aliases (cosmos: tendermint/...)
    if (typesByName.has(name)) throw new TableError(`${file}: key "input_aliases.${name}": ${name} is already an amino name in "names"`);
    if (!names.has(type)) throw new TableError(`${file}: key "input_aliases.${name}": ${type} has no amino name in "names"`);
    typesByName.set(name, type);
  }
  const types = new Map<string, AminoTypeRules>();
  for (const [type, raw] of Object.entries(table.types ?? {})) {
    types.set(type, {
      keep: raw.keep === "*" ? "all" : new Set(raw.keep ?? []),
      nulls: new Set(raw.nulls ?? []),
      drop: new Set(raw.drop ?? []),
      rename: new Map(Object.entries(raw.rename ?? {})),
      hex: new Set(raw.hex ?? []),
      ints: new Set(raw.ints ?? []),
      numbers: new Set(raw.numbers ?? []),
      flatten: new Set(raw.flatten ?? []),
      fixed: new Map(Object.entries(raw.fixed ?? {})),
      as: raw.as,
    });
  }
  const rawKeyTypes = new Set(table.raw_keys ?? []);
  for (const type of rawKeyTypes) if (!names.has(type)) throw new TableError(`${file}: key "raw_keys": ${type} has no amino name in "names"`);
  return { names, typesByName, types, rawKeyTypes };
}

/**
 * Checks the table against the proto tree (at REST startup): every type it
 * names exists, every field a rule names is a field of that type and of the
 * kind the rule needs. Fails with file and key.
 */
export function checkAminoTransforms(transforms: AminoTransforms, root: protobuf.Root, file = path.basename(AMINO_TRANSFORMS_FILE)): void {
  const lookup = (name: string, key: string): protobuf.Type => {
    const found = root.lookup(name);
    if (!(found instanceof protobuf.Type)) throw new TableError(`${file}: key "${key}": ${name} is not a message type of proto/`);
    return found;
  };
  for (const type of transforms.names.keys()) lookup(type, `names.${type}`);
  for (const type of transforms.rawKeyTypes) {
    const key = lookup(type, "raw_keys").fields.key;
    if (key?.type !== "bytes") throw new TableError(`${file}: key "raw_keys": ${type} has no bytes field "key"`);
  }
  for (const [typeName, rules] of transforms.types) {
    const type = lookup(typeName, `types.${typeName}`);
    type.resolveAll();
    const fieldOf = (rule: string, name: string): protobuf.Field => {
      const field = type.fields[name];
      if (!field)
        throw new TableError(
          `${file}: key "types.${typeName}.${rule}": ${name} is not a field of ${typeName} (its fields: ${type.fieldsArray.map((f) => f.name).join(", ")})`,
        );
      return field;
    };
    // Fields lifted from a flattened message count as fields of the type for the other rules.
    const lifted = new Set<string>();
    for (const name of rules.flatten) {
      const field = fieldOf("flatten", name);
      if (!(field.resolvedType instanceof protobuf.Type)) throw new TableError(`${file}: key "types.${typeName}.flatten": ${name} is not a message field`);
      for (const inner of field.resolvedType.fieldsArray) lifted.add(inner.name);
    }
    const check = (rule: string, names: Iterable<string>, kind?: (field: protobuf.Field) => boolean, what?: string) => {
      for (const name of names) {
        if (lifted.has(name) && !type.fields[name]) continue;
        const field = fieldOf(rule, name);
        if (kind && !kind(field)) throw new TableError(`${file}: key "types.${typeName}.${rule}": ${name} is not ${what}`);
      }
    };
    if (rules.keep !== "all") check("keep", rules.keep);
    check("nulls", rules.nulls);
    check("drop", rules.drop);
    check("rename", rules.rename.keys());
    check("hex", rules.hex, (f) => f.type === "bytes", "a bytes field");
    check("ints", rules.ints, (f) => f.resolvedType instanceof protobuf.Enum, "an enum field");
    check("numbers", rules.numbers, (f) => /^(u?int64|s?fixed64|sint64)$/.test(f.type), "a 64-bit integer field");
    if (rules.as === "std-tx" && typeName !== names().protoName("core.tx.v1beta1.Tx"))
      throw new TableError(`${file}: key "types.${typeName}.as": std-tx applies to ${names().protoName("core.tx.v1beta1.Tx")} only`);
  }
}

let shared: AminoTransforms | undefined;

export function aminoTransforms(): AminoTransforms {
  shared ??= loadAminoTransforms();
  return shared;
}
