import fs from "node:fs";
import path from "node:path";
import { tableValidator } from "./schemaValidator.js";
import { describeSchemaErrors } from "../util/schemaErrors.js";
import { parseYaml } from "./builtYaml.js";

/**
 * Reads a YAML file of one object (a table that is not a list of entries), passes it through
 * `transform`, and checks it against its JSON Schema. A mistake throws `fail(message)`, the message
 * naming the file and the key.
 */
export function loadValidatedYaml(
  file: string,
  schema: object,
  fail: (message: string) => Error,
  transform: (data: unknown) => unknown = (data) => data,
): unknown {
  let data: unknown;
  try {
    data = transform(parseYaml(fs.readFileSync(file, "utf8")) ?? {});
  } catch (err) {
    throw fail(`${path.basename(file)}: ${(err as Error).message}`);
  }
  const validate = tableValidator(schema);
  if (!validate(data)) {
    const problem = describeSchemaErrors(validate.errors!, data);
    const key = problem.path.join(".");
    throw fail(`${path.basename(file)}: ${key ? `key "${key}": ` : ""}${problem.message}`);
  }
  return data;
}
