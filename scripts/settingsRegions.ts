/**
 * The README's settings tables, each between its markers, generated from the declarations in
 * src/config/appConfig.ts and src/config/nodeConfig.ts (the one source of every default and meaning).
 * Shared by the writer (npm run docs:settings) and the test that compares each whole region.
 */
import { APP_SETTINGS } from "../src/config/appConfig.js";
import { NODE_SETTINGS } from "../src/config/nodeConfig.js";
import { settingsTable, type SettingsFile } from "../src/config/settings.js";

/** A generated part of the README: its markers and the text between them. */
export interface ReadmeRegion {
  name: string;
  start: string;
  end: string;
  body: string;
}

const FILES: Array<[string, SettingsFile]> = [
  ["app.toml", APP_SETTINGS],
  ["config.toml", NODE_SETTINGS],
];

/** prettier-ignore keeps the formatter from padding the generated table's columns. */
export function settingsRegions(): ReadmeRegion[] {
  return FILES.map(([name, settings]) => ({
    name,
    start: `<!-- settings:${name}:start -->`,
    end: `<!-- settings:${name}:end -->`,
    body: ["<!-- prettier-ignore-start -->", settingsTable(settings), "<!-- prettier-ignore-end -->"].join("\n"),
  }));
}

/** The text between a region's markers, or undefined when the markers are missing or out of order. */
export function regionText(document: string, region: ReadmeRegion): string | undefined {
  const from = document.indexOf(region.start);
  const to = document.indexOf(region.end);
  if (from < 0 || to < from) return undefined;
  return document
    .slice(from + region.start.length, to)
    .replace(/^\n/, "")
    .replace(/\n$/, "");
}

/** The document with each region's text replaced by its generated body; idempotent. */
export function withRegions(document: string, regions: ReadmeRegion[]): string {
  let text = document;
  for (const region of regions) {
    const from = text.indexOf(region.start);
    const to = text.indexOf(region.end);
    if (from < 0 || to < from) throw new Error(`README.md lacks the markers ${region.start} … ${region.end}`);
    text = `${text.slice(0, from + region.start.length)}\n${region.body}\n${text.slice(to)}`;
  }
  return text;
}
