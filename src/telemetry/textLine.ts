/**
 * The readable form of one of pino's JSON lines: `[HH:MM:ss.mmm] LEVEL: msg {fields}`
 * (local clock time), an error's stack on the lines after it; a line that is
 * not a JSON object is written as it came.
 *
 * The logger's lines start `{"level":"…","time":<epoch ms>` and end with the
 * message (pino's order), so a line whose fields hold no nested object is cut
 * apart as text; any other is parsed.
 */
export function textLine(jsonLine: string): string {
  return cutLine(jsonLine) ?? parsedLine(jsonLine);
}

const HEAD = '{"level":"';
const TIME = ',"time":';
const MSG = ',"msg":"';

function cutLine(line: string): string | undefined {
  if (!line.startsWith(HEAD)) return undefined;
  const levelEnd = line.indexOf('"', HEAD.length);
  if (levelEnd < 0 || !line.startsWith(TIME, levelEnd + 1)) return undefined;
  let timeEnd = levelEnd + 1 + TIME.length;
  while (timeEnd < line.length && line.charCodeAt(timeEnd) >= 48 && line.charCodeAt(timeEnd) <= 57) timeEnd++;
  const end = line.endsWith("}\n") ? line.length - 2 : line.endsWith("}") ? line.length - 1 : -1;
  if (end < timeEnd) return undefined;
  // `{"` outside a string is a nested object (inside one its quote is escaped): such a line is parsed
  if (line.includes('{"', timeEnd)) return undefined;
  let members = line.slice(timeEnd, end);
  let message = "";
  const msgAt = members.lastIndexOf(MSG);
  if (msgAt >= 0 && members.endsWith('"')) {
    const quoted = members.slice(msgAt + MSG.length - 1);
    message = quoted.includes("\\") ? (JSON.parse(quoted) as string) : quoted.slice(1, -1);
    members = members.slice(0, msgAt);
  }
  const fields = members.length > 0 ? ` {${members.slice(1)}}` : "";
  const level = line.slice(HEAD.length, levelEnd).toUpperCase();
  return `[${clockTime(Number(line.slice(levelEnd + 1 + TIME.length, timeEnd)))}] ${level}: ${message}${fields}\n`;
}

function parsedLine(jsonLine: string): string {
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
  return `[${clockTime(typeof time === "number" || typeof time === "string" ? time : Date.now())}] ${String(level).toUpperCase()}: ${message}${rest}${stack}\n`;
}

/** The last second formatted, reused by the lines of that second. */
let second = { epoch: Number.NaN, text: "" };

/** Local clock time of a line: HH:MM:ss.mmm. */
export function clockTime(time: number | string): string {
  // an epoch number (every request line) needs no Date until its second changes
  const ms = typeof time === "number" ? time : new Date(time).getTime();
  if (Number.isNaN(ms)) return String(time);
  const epoch = Math.floor(ms / 1000);
  if (epoch !== second.epoch) {
    const date = new Date(ms);
    second = { epoch, text: `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}` };
  }
  const milli = ms - epoch * 1000;
  return `${second.text}.${milli < 10 ? "00" : milli < 100 ? "0" : ""}${milli}`;
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

function stackOf(err: unknown): string {
  const stack = typeof err === "object" && err !== null ? (err as { stack?: unknown }).stack : undefined;
  return typeof stack === "string" ? `\n    ${stack.split("\n").join("\n    ")}` : "";
}
