import fs from "node:fs";
import path from "node:path";
import { load as loadYaml } from "js-yaml";
import type { ErrorObject } from "ajv";
import { tableValidator } from "./schemaValidator.js";

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
    data = loadYaml(fs.readFileSync(file, "utf8"), { filename: file }) ?? [];
  } catch (err) {
    throw new TableError(`${path.basename(file)}: ${(err as Error).message}`);
  }
  const validate = tableValidator(schema);
  if (!validate(data)) throw new TableError(describeSchemaError(file, data, validate.errors!, label, verbs));
  return (data as T[]).map((entry, index) => ({ entry, source: { file, index, label: label(entry as Record<string, unknown>) } }));
}

function describeSchemaError(file: string, data: unknown, errors: ErrorObject[], label: (entry: Record<string, unknown>) => string, verbs: string[]): string {
  // Prefer the deepest error: it names the key that is wrong, not the entry around it.
  let error = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0]!;
  // A branch of a oneOf that lacks its key: the oneOf says which keys are the choice.
  if ((error.keyword === "required" || error.keyword === "not") && error.schemaPath.includes("/oneOf/")) {
    const choice = errors.find((e) => e.keyword === "oneOf" && e.instancePath === error.instancePath && error.schemaPath.startsWith(`${e.schemaPath}/`));
    if (choice) error = choice;
  }
  const [indexText, ...keyPath] = error.instancePath.split("/").slice(1);
  if (indexText === undefined) return `${path.basename(file)}: the table must be a list of entries (${error.message})`;
  const index = Number(indexText);
  const entry = (data as Record<string, unknown>[])[index] ?? {};
  const source = { file, index, label: typeof entry === "object" && entry ? label(entry) : String(entry) };
  let key = keyPath.join(".");
  let message = error.message ?? "is invalid";
  const entryLevel = keyPath.length === 0 || (keyPath.length === 1 && error.keyword === "required" && verbs.includes(String(error.params.missingProperty)));
  if (entryLevel && (error.keyword === "oneOf" || error.keyword === "not" || error.schemaPath.startsWith("#/items/oneOf/"))) {
    key = "";
    message = `an entry needs exactly one verb key (${verbs.slice(0, -1).join(", ")} or ${verbs.at(-1)})`;
  } else if (error.keyword === "oneOf") {
    const branches = (Array.isArray(error.schema) ? error.schema : []) as Array<{ required?: string[] }>;
    const keys = branches.flatMap((b) => b.required ?? []);
    message = keys.length > 0 ? `needs exactly one of ${keys.join(", ")}` : "does not have any of the allowed forms";
  } else if ((error as { propertyName?: string }).propertyName !== undefined) {
    key = [key, (error as { propertyName?: string }).propertyName].filter(Boolean).join(".");
    message = "is not a valid name";
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
