/**
 * The README's table of the as-shipped bench rows, between its markers, made from
 * bench/results.json (npm run bench -- shipped shipped:workers writes the rows). The numbers
 * live in results.json; the table only shows them, so a default that costs is seen on the
 * README's first pages the day its rows land (test/docs/shippedRowsReadme.test.ts fails while
 * the table is older than the rows; npm run docs:settings writes it).
 */
import fs from "node:fs";
import path from "node:path";
import { PACKAGE_ROOT } from "../src/util/paths.js";
import type { ReadmeRegion } from "./settingsRegions.js";

interface Row {
  subject: string;
  ratio: number;
  note?: string;
}

const ROWS = ["hot balance", "cold balance", "params"] as const;

export function shippedRowsRegion(resultsFile = path.join(PACKAGE_ROOT, "bench", "results.json")): ReadmeRegion {
  const rows = (JSON.parse(fs.readFileSync(resultsFile, "utf8")) as { results: Row[] }).results;
  const find = (subject: string) => rows.find((row) => row.subject === subject);
  const ratio = (subject: string) => {
    const row = find(subject);
    return row ? `${row.ratio.toFixed(2)}x` : "not measured";
  };
  /** The CPU multiple a row's note gives ("CPU multiple 1.07x" or "CPU per request 1.17x bare Koa's"). */
  const cpu = (subject: string) => {
    const note = find(subject)?.note ?? "";
    const multiple = /CPU (?:multiple|per request) (\d+\.\d+)x/.exec(note)?.[1];
    return multiple ? `${multiple}x` : "not measured";
  };
  const lines = [
    "| row | `start` as shipped: answers/s against bare Koa | its CPU per request against bare Koa's | the request log's cost: answers/s on against off (target ≥ 0.95x) | CPU per request against bare Koa's, log off, 1 process (target) | the same, `api.workers = 2` | `gateway --node` as shipped: answers/s against bare Koa |",
    "| --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const row of ROWS) {
    const target = row === "params" ? "1.15x" : "1.4x";
    const gateway = row === "cold balance" ? "not measured" : ratio(`gateway --node as shipped (init's configuration, untouched), ${row}`);
    lines.push(
      `| ${row} | ${ratio(`start as shipped (npm start's configuration, untouched), ${row}`)} | ${cpu(`start as shipped (npm start's configuration, untouched), ${row}`)} | ${ratio(`the request log's cost (api.log-requests "auto" on start, text), ${row}`)} | ${cpu(`server CPU per request, request log off (api.workers = 1), ${row}`)} (≤ ${target}) | ${cpu(`server CPU per request, log off, api.workers = 2 (api.workers = 2), ${row}`)} | ${gateway} |`,
    );
  }
  return {
    name: "as-shipped bench rows",
    start: "<!-- bench:shipped:start -->",
    end: "<!-- bench:shipped:end -->",
    body: ["<!-- prettier-ignore-start -->", ...lines, "<!-- prettier-ignore-end -->"].join("\n"),
  };
}
