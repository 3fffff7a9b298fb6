/**
 * The readable form of one of pino's JSON lines: `[HH:MM:ss.mmm] LEVEL: msg {fields}`
 * (local clock time), an error's stack on the lines after it; a line that is
 * not a JSON object is written as it came.
 */
export function textLine(jsonLine: string): string {
  let entry: unknown;
  try {
    entry = JSON.parse(jsonLine);
  } catch {
    return jsonLine;
  }
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return jsonLine;
  const { level, time, msg, ...fields } = entry as Record<string, unknown>;
  const stack = stackOf(fields.err);
  const rest = Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : "";
  const message = typeof msg === "string" ? msg : msg === undefined ? "" : JSON.stringify(msg);
  return `[${clock(time)}] ${String(level).toUpperCase()}: ${message}${rest}${stack}\n`;
}

function clock(time: unknown): string {
  const date = new Date(typeof time === "number" || typeof time === "string" ? time : Date.now());
  const two = (n: number) => (n < 10 ? `0${n}` : String(n));
  const ms = date.getMilliseconds();
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${ms < 10 ? "00" : ms < 100 ? "0" : ""}${ms}`;
}

function stackOf(err: unknown): string {
  const stack = typeof err === "object" && err !== null ? (err as { stack?: unknown }).stack : undefined;
  return typeof stack === "string" ? `\n    ${stack.split("\n").join("\n    ")}` : "";
}
