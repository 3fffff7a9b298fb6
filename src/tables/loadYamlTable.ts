import fs from "node:fs";
import path from "node:path";
import { load as loadYaml } from "js-yaml";
import { Ajv, type ErrorObject } from "ajv";

/** A mistake in a route table; the message names file, entry and key. */
export class TableError extends Error {}

/** Where an entry came from, for messages: `routes.yaml: entry 4 (get /core/...)`. */
export interface EntrySource {
  file: string;
  index: number;
  label: string;
}

export function entryPrefix(source: EntrySource, key?: string): string {
  return `${path.basename(source.file)}: entry ${source.index + 1} (${source.label})${key ? `: key "${key}"` : ""}`;
}

/** Reads a YAML table and validates it against its JSON Schema. */
export function loadYamlTable<T>(file: string, schema: object, label: (entry: Record<string, unknown>) => string): Array<{ entry: T; source: EntrySource }> {
  let data: unknown;
  try {
    data = loadYaml(fs.readFileSync(file, "utf8"), { filename: file }) ?? [];
  } catch (err) {
    throw new TableError(`${path.basename(file)}: ${(err as Error).message}`);
  }
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);
  if (!validate(data)) throw new TableError(describeSchemaError(file, data, validate.errors!, label));
  return (data as T[]).map((entry, index) => ({ entry, source: { file, index, label: label(entry as Record<string, unknown>) } }));
}

function describeSchemaError(file: string, data: unknown, errors: ErrorObject[], label: (entry: Record<string, unknown>) => string): string {
  // Prefer the deepest error: it names the key that is wrong, not the entry around it.
  const error = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0]!;
  const [indexText, ...keyPath] = error.instancePath.split("/").slice(1);
  if (indexText === undefined) return `${path.basename(file)}: the table must be a list of entries (${error.message})`;
  const index = Number(indexText);
  const entry = (data as Record<string, unknown>[])[index] ?? {};
  const source = { file, index, label: typeof entry === "object" && entry ? label(entry) : String(entry) };
  let key = keyPath.join(".");
  let message = error.message ?? "is invalid";
  if (error.keyword === "oneOf" || error.keyword === "not" || error.schemaPath.includes("/oneOf/")) {
    key = "";
    message = "an entry needs exactly one verb key (get or post)";
  } else if (error.keyword === "additionalProperties") {
    key = [key, String(error.params.additionalProperty)].filter(Boolean).join(".");
    message = "is not a known key";
  } else if (error.keyword === "required") {
    key = String(error.params.missingProperty);
    message = "is required";
  } else if (error.keyword === "pattern") {
    const value = keyPath.reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], entry);
    message = `${JSON.stringify(value)} ${message}`;
  }
  return key ? `${entryPrefix(source, key)}: ${message}` : `${entryPrefix(source)}: ${message}`;
}
