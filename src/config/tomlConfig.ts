import fs from "node:fs";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import type { ErrorObject } from "ajv";
import { describeSchemaErrors, valueAt } from "../util/schemaErrors.js";
import { configValidator } from "./configValidator.js";

export class ConfigError extends Error {}

/**
 * Reads one TOML settings file: creates it from `defaultText` (with its
 * comments) when missing, validates it against `schema` (which fills in
 * defaults for absent keys), and stops with file, key and expected value on
 * a wrong type or value. Keys the schema does not know are left alone.
 */
export function loadTomlConfig<T>(file: string, defaultText: string, schema: object): T {
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, defaultText);
  }
  let data: unknown;
  try {
    data = parseToml(fs.readFileSync(file, "utf8"));
  } catch (err) {
    throw new ConfigError(`${file}: not valid TOML: ${(err as Error).message.split("\n")[0]}`);
  }
  const validate = configValidator(schema);
  if (!validate(data)) throw new ConfigError(describe(file, validate.errors!, schema, data));
  return data as T;
}

/** `file: key "api.address" must be <the key's description in the schema> (got <value>)`. */
function describe(file: string, errors: ErrorObject[], schema: object, data: unknown): string {
  const { path: found, message } = describeSchemaErrors(errors, data);
  const descriptionAt = (segments: string[]) => (lookupSchema(schema, segments) as { description?: string } | undefined)?.description;
  // a mistake inside a list value (global-labels) is told as the key's: its description says what the whole value must be
  let segments = found;
  while (segments.length > 1 && !descriptionAt(segments)) segments = segments.slice(0, -1);
  if (!descriptionAt(segments)) segments = found;
  const expected = descriptionAt(segments) ?? message;
  return `${file}: key "${segments.join(".")}" must be ${expected} (got ${JSON.stringify(valueAt(data, segments))})`;
}

function lookupSchema(schema: object, segments: string[]): object | undefined {
  return segments.reduce<object | undefined>((node, s) => (node as { properties?: Record<string, object> } | undefined)?.properties?.[s], schema);
}

/** "tcp://0.0.0.0:1317" → {host, port}. */
export function parseListenAddress(address: string): { host: string; port: number } {
  const match = /^(?:tcp:\/\/)?(\[[^\]]+\]|[^:/]+):(\d+)$/.exec(address);
  if (!match) throw new ConfigError(`invalid listen address "${address}", expected tcp://HOST:PORT`);
  return { host: match[1]!.replace(/^\[|\]$/g, ""), port: Number(match[2]) };
}

/** "5s", "500ms", "1m", "0s" → milliseconds. */
export function parseDurationSetting(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text);
  if (!match) throw new ConfigError(`invalid duration "${text}"`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] as "ms" | "s" | "m" | "h"];
  return Number(match[1]) * unit;
}

export const LISTEN_ADDRESS_PATTERN = "^tcp://(\\[[^\\]]+\\]|[^:/]+):\\d{1,5}$";
export const DURATION_PATTERN = "^\\d+(\\.\\d+)?(ms|s|m|h)$";
