import fs from "node:fs";
import http from "node:http";

/** An answer as it came off the socket: status, every header in its order and case, the bytes. */
export interface RawAnswer {
  status: number;
  headers: string[];
  body: string;
}

/** A GET on a connection of its own, its head kept raw (rawHeaders). */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.rawHeaders, body }));
      })
      .on("error", reject);
  });
}

/** The head without Date (a clock) and Connection/Keep-Alive (the socket's), which node:http writes itself. */
export function headLines(answer: RawAnswer): string[] {
  const kept: string[] = [];
  for (let i = 0; i < answer.headers.length; i += 2) {
    if (!/^(date|connection|keep-alive)$/i.test(answer.headers[i]!)) kept.push(`${answer.headers[i]}: ${answer.headers[i + 1]}`);
  }
  return kept;
}

/** The request log's lines (JSON) for one route template. */
export function requestLogLines(logFile: string, route: string): Array<Record<string, unknown>> {
  return fs
    .readFileSync(logFile, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.route === route);
}

/** A request log line without its clock and timing: what two answers of the same request share. */
export function logLineShape({ level, msg, method, route, family, status, height, cached }: Record<string, unknown>): Record<string, unknown> {
  return { level, msg, method, route, family, status, height, cached };
}
