import { parseConditions, QueryParseError, type Operator, type ParsedCondition } from "./queryGrammar.js";

export { QueryParseError };

/** The engine's maxQueryLength: longer queries are refused before they are parsed. */
export const MAX_QUERY_BYTES = 512;

export class QueryTooLongError extends Error {
  constructor() {
    super("maximum query length exceeded");
  }
}

/** A converted operand: strings, int64 (as bigint), float64, and instants (DATE and TIME) in milliseconds. */
type Operand = { kind: "string"; value: string } | { kind: "int"; value: bigint } | { kind: "float"; value: number } | { kind: "time"; value: number };

export interface Condition {
  key: string;
  op: Operator;
  operand?: Operand;
}

/** Attribute values by composite key ("tm.event", "tx.hash", "transfer.recipient", ...). */
export type EventAttributes = ReadonlyMap<string, readonly string[]>;

const INT64_MAX = 2n ** 63n - 1n;

/**
 * One query of Tendermint 0.34's event language: parsed once (errors worded
 * as the engine words them), then matched against events with the engine's
 * rules — every condition must hold for some value of its key.
 */
export class EventQuery {
  readonly conditions: readonly Condition[];

  constructor(readonly text: string) {
    if (Buffer.byteLength(text) > MAX_QUERY_BYTES) throw new QueryTooLongError();
    this.conditions = parseConditions(text).map(convert);
  }

  matches(events: EventAttributes): boolean {
    if (events.size === 0) return false;
    return this.conditions.every((condition) => conditionHolds(condition, events));
  }
}

/** Whether a condition holds for a set of events (EXISTS on a key without a dot: any key it begins). */
function conditionHolds(condition: Condition, events: EventAttributes): boolean {
  if (condition.op === "EXISTS") {
    if (condition.key.includes(".")) return events.has(condition.key);
    for (const key of events.keys()) if (key.startsWith(condition.key)) return true;
    return false;
  }
  return (events.get(condition.key) ?? []).some((value) => valueMatches(condition, value));
}

/**
 * Whether one attribute value satisfies a condition. Numbers are read from the
 * first run of digits and dots in the value ("8.045stake" is 8.045); a value
 * that does not convert does not match (the engine reports an error and skips it).
 */
export function valueMatches(condition: Condition, value: string): boolean {
  const { op, operand } = condition;
  if (op === "EXISTS") return true;
  if (!operand) return false;
  switch (operand.kind) {
    case "string":
      return op === "=" ? value === operand.value : op === "CONTAINS" && value.includes(operand.value);
    case "int": {
      const actual = intOf(value);
      return actual !== undefined && ordered(op, actual < operand.value ? -1 : actual > operand.value ? 1 : 0);
    }
    case "float": {
      const actual = floatOf(numericRun(value));
      return actual !== undefined && ordered(op, Math.sign(actual - operand.value));
    }
    case "time": {
      const actual = value.includes("T") ? rfc3339(value) : dateOnly(value);
      return actual !== undefined && ordered(op, Math.sign(actual - operand.value));
    }
  }
}

function ordered(op: Operator, order: number): boolean {
  switch (op) {
    case "=":
      return order === 0;
    case "<":
      return order < 0;
    case "<=":
      return order <= 0;
    case ">":
      return order > 0;
    case ">=":
      return order >= 0;
    default:
      return false;
  }
}

function convert(parsed: ParsedCondition): Condition {
  const { key, op, operand } = parsed;
  if (!operand) return { key, op };
  switch (operand.kind) {
    case "string":
      return { key, op, operand: { kind: "string", value: operand.text } };
    case "number":
      if (operand.text.includes(".")) return { key, op, operand: { kind: "float", value: Number(operand.text) } };
      if (BigInt(operand.text) > INT64_MAX)
        throw new QueryParseError(
          `got strconv.ParseInt: parsing "${operand.text}": value out of range while trying to parse ${operand.text} as int64 (should never happen if the grammar is correct)`,
        );
      return { key, op, operand: { kind: "int", value: BigInt(operand.text) } };
    case "time": {
      const value = rfc3339(operand.text);
      if (value === undefined)
        throw new QueryParseError(
          `got parsing time "${operand.text}": out of range while trying to parse ${operand.text} as time.Time / RFC3339 (should never happen if the grammar is correct)`,
        );
      return { key, op, operand: { kind: "time", value } };
    }
    case "date": {
      const value = dateOnly(operand.text);
      if (value === undefined)
        throw new QueryParseError(
          `got parsing time "${operand.text}": day out of range while trying to parse ${operand.text} as time.Time / '2006-01-02' (should never happen if the grammar is correct)`,
        );
      return { key, op, operand: { kind: "time", value } };
    }
  }
}

/** The first run of digits and dots in a value, as the engine's `([0-9\.]+)` finds it (a scan, not a regex). */
function numericRun(value: string): string {
  let start = 0;
  while (start < value.length && !isNumeric(value.charCodeAt(start))) start++;
  let end = start;
  while (end < value.length && isNumeric(value.charCodeAt(end))) end++;
  return value.slice(start, end);
}

function isNumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || code === 46;
}

/** An int64 from a value: a run with a dot is read as a float and truncated, as the engine does. */
function intOf(value: string): bigint | undefined {
  const run = numericRun(value);
  if (run.includes(".")) {
    const float = floatOf(run);
    return float === undefined ? undefined : BigInt(Math.trunc(float));
  }
  if (run === "") return undefined;
  const int = BigInt(run);
  return int > INT64_MAX ? undefined : int;
}

/** Go's ParseFloat of a run of digits and dots: at most one dot, at least one digit. */
function floatOf(run: string): number | undefined {
  const dot = run.indexOf(".");
  if (run === "" || run === "." || (dot !== -1 && run.indexOf(".", dot + 1) !== -1)) return undefined;
  return Number(run);
}

/** RFC 3339 as Go's time.Parse reads it (seconds required, an offset or Z, optional fraction). */
function rfc3339(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone] = m;
  const day = dayMillis(Number(y), Number(mo), Number(d));
  if (day === undefined || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const offset = zone === "Z" ? 0 : (zone!.startsWith("-") ? -1 : 1) * (Number(zone!.slice(1, 3)) * 60 + Number(zone!.slice(4, 6))) * 60_000;
  return day + ((Number(h) * 60 + Number(mi)) * 60 + Number(s)) * 1000 + Math.floor(Number(fraction ?? "0") * 1000) - offset;
}

function dateOnly(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return m ? dayMillis(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
}

function dayMillis(year: number, month: number, day: number): number | undefined {
  const back = new Date(0);
  back.setUTCFullYear(year, month - 1, day); // not Date.UTC, which reads years below 100 as 19xx
  const millis = back.getTime();
  return back.getUTCFullYear() === year && back.getUTCMonth() === month - 1 && back.getUTCDate() === day ? millis : undefined;
}

/** Why the engine would refuse a query (its own words), or undefined when it takes it: for callers that check before asking a node. */
export function queryProblem(text: string): string | undefined {
  try {
    new EventQuery(text);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
