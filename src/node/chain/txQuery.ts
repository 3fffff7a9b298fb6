/**
 * The consensus engine's query language for tx_search and subscriptions:
 * conditions `tag op operand` joined by AND; operators =, <, <=, >, >=,
 * CONTAINS, EXISTS; operands 'string', numbers, TIME t, DATE d.
 */
export type Operator = "=" | "<" | "<=" | ">" | ">=" | "CONTAINS" | "EXISTS";

export type Operand = { kind: "string"; value: string } | { kind: "number"; value: number } | { kind: "time"; value: number };

export interface Condition {
  tag: string;
  op: Operator;
  operand?: Operand;
}

export class QuerySyntaxError extends Error {}

const CONDITION = /^\s*([^\s\\()"'=><]+)\s*(<=|>=|=|<|>|CONTAINS\b|EXISTS\b)\s*(?:('(?:[^']*)')|(TIME\s+\S+)|(DATE\s+\S+)|(-?\d+(?:\.\d+)?))?\s*/;

export function parseQuery(query: string): Condition[] {
  const conditions: Condition[] = [];
  let rest = query.trim();
  if (rest === "") throw new QuerySyntaxError("empty query");
  while (rest.length > 0) {
    const match = CONDITION.exec(rest);
    if (!match) throw new QuerySyntaxError(`failed to parse query ${JSON.stringify(query)} near ${JSON.stringify(rest.slice(0, 20))}`);
    const [whole, tag, op, quoted, time, date, number] = match;
    const condition: Condition = { tag: tag!, op: op as Operator };
    if (op === "EXISTS") {
      if (quoted || time || date || number) throw new QuerySyntaxError(`EXISTS takes no operand in ${JSON.stringify(query)}`);
    } else if (quoted !== undefined) condition.operand = { kind: "string", value: quoted.slice(1, -1) };
    else if (number !== undefined) condition.operand = { kind: "number", value: Number(number) };
    else if (time !== undefined) condition.operand = { kind: "time", value: parseTime(time.replace(/^TIME\s+/, ""), query) };
    else if (date !== undefined) condition.operand = { kind: "time", value: parseTime(`${date.replace(/^DATE\s+/, "")}T00:00:00Z`, query) };
    else throw new QuerySyntaxError(`missing operand after ${tag} ${op} in ${JSON.stringify(query)}`);
    if (op === "CONTAINS" && condition.operand?.kind !== "string") throw new QuerySyntaxError(`CONTAINS needs a 'string' operand in ${JSON.stringify(query)}`);
    conditions.push(condition);
    rest = rest.slice(whole.length);
    if (rest.length === 0) break;
    const and = /^AND\s+/i.exec(rest);
    if (!and) throw new QuerySyntaxError(`expected AND in ${JSON.stringify(query)} near ${JSON.stringify(rest.slice(0, 20))}`);
    rest = rest.slice(and[0].length);
  }
  return conditions;
}

function parseTime(text: string, query: string): number {
  const millis = Date.parse(text);
  if (Number.isNaN(millis)) throw new QuerySyntaxError(`invalid time ${text} in ${JSON.stringify(query)}`);
  return millis;
}

/** Whether an indexed attribute value satisfies a condition. */
export function matches(condition: Condition, value: string): boolean {
  const { op, operand } = condition;
  if (op === "EXISTS") return true;
  if (!operand) return false;
  if (op === "CONTAINS") return value.includes(operand.value as string);
  if (operand.kind === "string") return op === "=" ? value === operand.value : compare(op, value.localeCompare(operand.value));
  const actual = operand.kind === "time" ? Date.parse(value) : Number(value);
  if (Number.isNaN(actual)) return false;
  return compare(op, actual === operand.value ? 0 : actual < operand.value ? -1 : 1);
}

function compare(op: Operator, order: number): boolean {
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
