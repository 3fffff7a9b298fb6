import fs from "node:fs";
import path from "node:path";
import type { ErrorObject } from "ajv";
import { tableValidator } from "./schemaValidator.js";
import { describeSchemaErrors } from "../util/schemaErrors.js";
import { names } from "../names/activeNames.js";
import { parseYaml } from "./builtYaml.js";

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
export function loadYamlTable<T>(
  file: string,
  schema: object,
  label: (entry: Record<string, unknown>) => string,
  verbs: string[] = ["get", "post"],
): Array<{ entry: T; source: EntrySource }> {
  let data: unknown;
  try {
    // the naming profile's words, applied as the table is read (the file is never copied)
    data = names().deep(parseYaml(fs.readFileSync(file, "utf8"), file) ?? []);
  } catch (err) {
    throw new TableError(`${path.basename(file)}: ${(err as Error).message}`);
  }
  const validate = tableValidator(schema);
  if (!validate(data)) throw new TableError(describeSchemaError(file, data, validate.errors!, label, verbs));
  return (data as T[]).map((entry, index) => ({ entry, source: { file, index, label: label(entry as Record<string, unknown>) } }));
}

function describeSchemaError(file: string, data: unknown, errors: ErrorObject[], label: (entry: Record<string, unknown>) => string, verbs: string[]): string {
  const { path: problemPath, message, error } = describeSchemaErrors(errors, data);
  const [indexText, ...keyPath] = error.instancePath.split("/").slice(1);
  if (indexText === undefined) return `${path.basename(file)}: the table must be a list of entries (${error.message})`;
  const index = Number(indexText);
  const entry = (data as Record<string, unknown>[])[index] ?? {};
  const source = { file, index, label: typeof entry === "object" && entry ? label(entry) : String(entry) };
  // An entry without exactly one verb key: say so rather than which branch of the oneOf failed.
  const entryLevel = keyPath.length === 0 || (keyPath.length === 1 && error.keyword === "required" && verbs.includes(String(error.params.missingProperty)));
  if (entryLevel && (error.keyword === "oneOf" || error.keyword === "not" || error.schemaPath.startsWith("#/items/oneOf/"))) {
    return `${entryPrefix(source)}: an entry needs exactly one verb key (${verbs.slice(0, -1).join(", ")} or ${verbs.at(-1)})`;
  }
  const key = problemPath.slice(1).join(".");
  return key ? `${entryPrefix(source, key)}: ${message}` : `${entryPrefix(source)}: ${message}`;
}
