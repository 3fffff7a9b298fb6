import type { ErrorObject } from "ajv";

/** What a schema error is about: the key path it names, and what is wrong there, in words. */
export interface SchemaProblem {
  /** The data path of the offending key (["3", "get", "path"]); empty for the document itself. */
  path: string[];
  /** What is wrong, e.g. "is not a known key", "is required", "must be integer". */
  message: string;
  /** The ajv error the problem was read from. */
  error: ErrorObject;
  /** All of ajv's errors (a caller that words an entry-level problem its own way looks at them). */
  errors: ErrorObject[];
}

/**
 * The one describer of ajv's errors for the YAML tables and the TOML settings: the
 * deepest error (it names the key that is wrong, not the object around it), with a
 * oneOf's own error preferred to a branch's, and the key of an unknown, missing or
 * badly named property added to the path.
 */
export function describeSchemaErrors(errors: ErrorObject[], data: unknown): SchemaProblem {
  let error = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0]!;
  // A branch of a oneOf that lacks its key: the oneOf says which keys are the choice.
  if ((error.keyword === "required" || error.keyword === "not") && error.schemaPath.includes("/oneOf/")) {
    const choice = errors.find((e) => e.keyword === "oneOf" && e.instancePath === error.instancePath && error.schemaPath.startsWith(`${e.schemaPath}/`));
    if (choice) error = choice;
  }
  const path = error.instancePath.split("/").slice(1);
  const propertyName = (error as { propertyName?: string }).propertyName;
  let message = error.message ?? "is invalid";
  if (error.keyword === "oneOf") {
    const branches = (Array.isArray(error.schema) ? error.schema : []) as Array<{ required?: string[] }>;
    const keys = branches.flatMap((b) => b.required ?? []);
    message = keys.length > 0 ? `needs exactly one of ${keys.join(", ")}` : "does not have any of the allowed forms";
  } else if (propertyName !== undefined) {
    path.push(propertyName);
    message = "is not a valid name";
  } else if (error.keyword === "additionalProperties") {
    path.push(String(error.params.additionalProperty));
    message = "is not a known key";
  } else if (error.keyword === "required") {
    path.push(String(error.params.missingProperty));
    message = "is required";
  } else if (error.keyword === "pattern") {
    message = `${JSON.stringify(valueAt(data, path))} ${message}`;
  }
  return { path: path.filter((segment) => segment !== ""), message, error, errors };
}

/** The value at a data path. */
export function valueAt(data: unknown, path: string[]): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], data);
}
