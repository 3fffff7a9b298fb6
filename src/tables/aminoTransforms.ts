import fs from "node:fs";
import path from "node:path";
import { load as loadYaml } from "js-yaml";
import { Ajv } from "ajv";
import { TableError } from "./loadYamlTable.js";
import { PACKAGE_ROOT } from "../util/paths.js";
import schema from "./schemas/amino-transforms.schema.json" with { type: "json" };

export const AMINO_TRANSFORMS_FILE = path.join(PACKAGE_ROOT, "amino-transforms.yaml");

/** The compiled amino-transforms.yaml. */
export interface AminoTransforms {
  /** proto full name → amino name */
  names: Map<string, string>;
  /** amino name → proto full name */
  typesByName: Map<string, string>;
  /** proto full name → fields rendered even when empty */
  keep: Map<string, Set<string>>;
}

export function loadAminoTransforms(file = AMINO_TRANSFORMS_FILE): AminoTransforms {
  let data: unknown;
  try {
    data = loadYaml(fs.readFileSync(file, "utf8"));
  } catch (err) {
    throw new TableError(`${path.basename(file)}: ${(err as Error).message}`);
  }
  const validate = new Ajv({ allErrors: false, strict: false }).compile(schema);
  if (!validate(data)) {
    const error = validate.errors![0]!;
    throw new TableError(`${path.basename(file)}: key "${error.instancePath.slice(1).replaceAll("/", ".")}": ${error.message}`);
  }
  const table = data as { names?: Record<string, string>; keep?: Record<string, string[]> };
  const names = new Map(Object.entries(table.names ?? {}));
  return {
    names,
    typesByName: new Map([...names].map(([type, name]) => [name, type])),
    keep: new Map(Object.entries(table.keep ?? {}).map(([type, fields]) => [type, new Set(fields)])),
  };
}

let shared: AminoTransforms | undefined;

export function aminoTransforms(): AminoTransforms {
  shared ??= loadAminoTransforms();
  return shared;
}
