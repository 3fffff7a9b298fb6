/**
 * One declaration per setting of a TOML settings file — its default, its rules, the
 * comment written above it and its meaning in the README — from which the default
 * file text, the JSON Schema that validates (and fills in) the file, the TypeScript
 * type of the values and the README table are all derived: each default is written once.
 */
type SettingValue = string | number | boolean | string[] | string[][];

interface Setting<T extends SettingValue = SettingValue> {
  default: T;
  /** A whole number (JSON Schema "integer"); numbers are otherwise any. */
  integer?: boolean;
  /** JSON Schema constraints beyond the type; `type` widens it (a number or a word such as "auto": minimum binds the number, pattern the word). */
  rules?: {
    type?: string[];
    pattern?: string;
    minimum?: number;
    maximum?: number;
    minLength?: number;
    maxLength?: number;
    maxItems?: number;
    enum?: string[];
    items?: object;
  };
  /** What a valid value looks like, for the error message ('an integer >= 1'). */
  expected: string;
  /** The comment written above the key in the default file (one line per entry). */
  comment: string[];
  /** The README table's "meaning" column (markdown). */
  meaning: string;
}

export interface SettingsFile {
  /** The comment at the top of the default file. */
  header: string[];
  /** Keys outside any [section]. */
  top: Record<string, Setting>;
  /** [section] → its keys. */
  sections: Record<string, Record<string, Setting>>;
}

type Widened<T> = T extends boolean
  ? boolean
  : T extends number
    ? number
    : T extends string
      ? string
      : T extends string[][]
        ? string[][]
        : T extends string[]
          ? string[]
          : never;
type ValueOf<S> = S extends Setting<infer T> ? Widened<T> : never;
type ValuesOf<G> = { -readonly [K in keyof G]: ValueOf<G[K]> };
/** The values a settings file holds once read: its keys with the types of their defaults. */
export type SettingsValues<F extends SettingsFile> = ValuesOf<F["top"]> & { -readonly [S in keyof F["sections"]]: ValuesOf<F["sections"][S]> };

/** The JSON Schema that validates a file and fills in the default of every absent key. */
export function settingsSchema(file: SettingsFile): object {
  const properties = (group: Record<string, Setting>) =>
    Object.fromEntries(
      Object.entries(group).map(([key, s]) => [
        key,
        { type: s.integer ? "integer" : Array.isArray(s.default) ? "array" : typeof s.default, ...s.rules, default: s.default, description: s.expected },
      ]),
    );
  return {
    type: "object",
    properties: {
      ...properties(file.top),
      ...Object.fromEntries(Object.entries(file.sections).map(([name, group]) => [name, { type: "object", default: {}, properties: properties(group) }])),
    },
  };
}

/** The default file: every key with its comment and default value. */
export function defaultSettingsText(file: SettingsFile): string {
  const lines = file.header.map((line) => `# ${line}`.trimEnd());
  const write = (group: Record<string, Setting>) => {
    for (const [key, s] of Object.entries(group)) lines.push("", ...s.comment.map((line) => `# ${line}`.trimEnd()), `${key} = ${tomlValue(s.default)}`);
  };
  write(file.top);
  for (const [name, group] of Object.entries(file.sections)) {
    lines.push("", `[${name}]`);
    write(group);
  }
  return `${lines.join("\n")}\n`;
}

/** The README table of a file's settings (markdown rows: key, default, meaning). */
export function settingsTable(file: SettingsFile): string {
  const rows = [
    ...Object.entries(file.top).map(([key, s]) => [key, s] as const),
    ...Object.entries(file.sections).flatMap(([name, group]) => Object.entries(group).map(([key, s]) => [`${name}.${key}`, s] as const)),
  ];
  return ["| key | default | meaning |", "|---|---|---|", ...rows.map(([key, s]) => `| \`${key}\` | \`${tomlValue(s.default)}\` | ${s.meaning} |`)].join("\n");
}

function tomlValue(value: SettingValue): string {
  return typeof value === "string" || Array.isArray(value) ? JSON.stringify(value) : String(value);
}
