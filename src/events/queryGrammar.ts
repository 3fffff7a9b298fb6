/**
 * Tendermint 0.34's event query grammar (libs/pubsub/query/query.peg), parsed
 * as its generated PEG parser parses it, so that a refused query gets the same
 * "parse error near <rule> (line L symbol S - line L symbol S):" text: the
 * reported token is the first matched rule that reached furthest into the
 * buffer, the query wrapped in double quotes. Every rule consumes or fails
 * without nested repetition, so parsing is linear in the query's length.
 */
export type Operator = "=" | "<" | "<=" | ">" | ">=" | "CONTAINS" | "EXISTS";

/** An operand as the grammar captured it (its text), before conversion. */
type OperandText = { kind: "string" | "number" | "time" | "date"; text: string };

export interface ParsedCondition {
  key: string;
  op: Operator;
  operand?: OperandText;
}

export class QueryParseError extends Error {}

type Rule =
  | "tag"
  | "value"
  | "number"
  | "digit"
  | "time"
  | "date"
  | "year"
  | "month"
  | "day"
  | "and"
  | "equal"
  | "contains"
  | "exists"
  | "le"
  | "ge"
  | "l"
  | "g"
  | "PegText"
  | "condition"
  | "e";

const TAG_EXCLUDED = new Set([" ", "\t", "\n", "\r", "\\", "(", ")", '"', "'", "=", ">", "<"]);
const END = "\u0000end";

/** `reads`, when given, counts the characters the parser looked at (for tests of its linear time). */
export function parseConditions(query: string, reads?: { count: number }): ParsedCondition[] {
  return new PegRun(query, reads).parse();
}

class PegRun {
  private readonly buffer: string[];
  private pos = 0;
  private max = { rule: "Unknown", begin: 0, end: 0 };
  private readonly conditions: ParsedCondition[] = [];

  constructor(
    query: string,
    private readonly reads = { count: 0 },
  ) {
    this.buffer = ['"', ...Array.from(query), '"', END];
  }

  parse(): ParsedCondition[] {
    if (this.char('"') && this.condition()) {
      for (;;) {
        const mark = this.pos;
        const count = this.conditions.length;
        if (this.spaces(1) && this.rule("and", () => this.literal("AND")) && this.spaces(1) && this.condition()) continue;
        this.pos = mark;
        this.conditions.length = count;
        break;
      }
      if (this.char('"') && this.buffer[this.pos] === END) {
        this.add("e", 0);
        return this.conditions;
      }
    }
    throw new QueryParseError(this.errorText());
  }

  /** tag ' '* (le … / ge … / l … / g … / equal … / contains ' '* value / exists) */
  private condition(): boolean {
    const begin = this.pos;
    const key = this.capture("tag", () => this.many(1, () => this.charWhere((c) => !TAG_EXCLUDED.has(c))));
    if (key === undefined) return this.fail(begin);
    this.spaces(0);
    const afterTag = this.pos;
    const comparisons: Array<[Rule, Operator, string]> = [
      ["le", "<=", "<="],
      ["ge", ">=", ">="],
      ["l", "<", "<"],
      ["g", ">", ">"],
    ];
    for (const [rule, op, text] of comparisons) {
      this.pos = afterTag;
      if (this.rule(rule, () => this.literal(text))) {
        this.spaces(0);
        const operand = this.number() ?? this.time() ?? this.date();
        if (operand) return this.done(begin, { key, op, operand });
      }
    }
    this.pos = afterTag;
    if (this.rule("equal", () => this.literal("="))) {
      this.spaces(0);
      const operand = this.number() ?? this.time() ?? this.date() ?? this.value();
      if (operand) return this.done(begin, { key, op: "=", operand });
    }
    this.pos = afterTag;
    if (this.rule("contains", () => this.literal("CONTAINS"))) {
      this.spaces(0);
      const operand = this.value();
      if (operand) return this.done(begin, { key, op: "CONTAINS", operand });
    }
    this.pos = afterTag;
    if (this.rule("exists", () => this.literal("EXISTS"))) return this.done(begin, { key, op: "EXISTS" });
    return this.fail(begin);
  }

  private done(begin: number, condition: ParsedCondition): boolean {
    this.conditions.push(condition);
    this.add("condition", begin);
    return true;
  }

  /** '\'' (!["'] .)* '\'' */
  private value(): OperandText | undefined {
    const begin = this.pos;
    const text = this.capture("value", () => this.char("'") && this.many(0, () => this.charWhere((c) => c !== '"' && c !== "'")) && this.char("'"));
    if (text === undefined) return this.none(begin);
    return { kind: "string", text: text.slice(1, -1) };
  }

  /** '0' / [1-9] digit* ('.' digit*)? */
  private number(): OperandText | undefined {
    const begin = this.pos;
    const text = this.capture("number", () => {
      if (this.char("0")) return true;
      if (!this.charWhere((c) => c >= "1" && c <= "9")) return false;
      this.many(0, () => this.digit());
      if (this.char(".")) this.many(0, () => this.digit());
      return true;
    });
    if (text === undefined) return this.none(begin);
    return { kind: "number", text };
  }

  /** "TIME " year '-' month '-' day 'T' dd ':' dd ':' dd (('-' / '+') dd ':' dd / 'Z') */
  private time(): OperandText | undefined {
    const begin = this.pos;
    if (!this.literal("TIME ")) return this.none(begin);
    const text = this.capture(
      "time",
      () =>
        this.ymd() &&
        this.char("T") &&
        this.digit() &&
        this.digit() &&
        this.char(":") &&
        this.digit() &&
        this.digit() &&
        this.char(":") &&
        this.digit() &&
        this.digit() &&
        this.zone(),
      begin,
    );
    if (text === undefined) return this.none(begin);
    return { kind: "time", text };
  }

  private zone(): boolean {
    const mark = this.pos;
    if ((this.char("-") || this.char("+")) && this.digit() && this.digit() && this.char(":") && this.digit() && this.digit()) return true;
    this.pos = mark;
    return this.char("Z");
  }

  /** "DATE " year '-' month '-' day */
  private date(): OperandText | undefined {
    const begin = this.pos;
    if (!this.literal("DATE ")) return this.none(begin);
    const text = this.capture("date", () => this.ymd(), begin);
    if (text === undefined) return this.none(begin);
    return { kind: "date", text };
  }

  private ymd(): boolean {
    return (
      this.rule("year", () => (this.char("1") || this.char("2")) && this.digit() && this.digit() && this.digit()) &&
      this.char("-") &&
      this.rule("month", () => (this.char("0") || this.char("1")) && this.digit()) &&
      this.char("-") &&
      this.rule("day", () => this.charWhere((c) => c >= "0" && c <= "3") && this.digit())
    );
  }

  private digit(): boolean {
    return this.rule("digit", () => this.charWhere((c) => c >= "0" && c <= "9"));
  }

  /**
   * `rule <- < body >`: the text token (PegText) is added before the rule's
   * own, as the generated parser adds them; `ruleBegin` is where the rule
   * started when a literal precedes the capture.
   */
  private capture(rule: Rule, body: () => boolean, ruleBegin = this.pos): string | undefined {
    const begin = this.pos;
    if (!body()) {
      this.pos = ruleBegin;
      return undefined;
    }
    this.add("PegText", begin);
    this.add(rule, ruleBegin);
    return this.buffer.slice(begin, this.pos).join("");
  }

  private rule(rule: Rule, body: () => boolean): boolean {
    const begin = this.pos;
    if (!body()) return this.fail(begin);
    this.add(rule, begin);
    return true;
  }

  private add(rule: string, begin: number): void {
    if (begin !== this.pos && this.pos > this.max.end) this.max = { rule, begin, end: this.pos };
  }

  private many(min: number, one: () => boolean): boolean {
    let count = 0;
    while (one()) count++;
    return count >= min;
  }

  private spaces(min: number): boolean {
    return this.many(min, () => this.char(" "));
  }

  private literal(text: string): boolean {
    const begin = this.pos;
    for (const c of text) if (!this.char(c)) return this.fail(begin);
    return true;
  }

  private char(c: string): boolean {
    return this.charWhere((x) => x === c);
  }

  private charWhere(test: (c: string) => boolean): boolean {
    const c = this.buffer[this.pos]!;
    this.reads.count++;
    if (c === END || !test(c)) return false;
    this.pos++;
    return true;
  }

  private fail(begin: number): false {
    this.pos = begin;
    return false;
  }

  private none(begin: number): undefined {
    this.pos = begin;
    return undefined;
  }

  /** The generated parser's error text: the furthest token, its line and symbol (1-based, counted in runes), its text quoted. */
  private errorText(): string {
    const { rule, begin, end } = this.max;
    const at = (position: number) => {
      let line = 1;
      let symbol = 0;
      for (let i = 0; i <= position; i++) {
        if (this.buffer[i] === "\n") {
          line++;
          symbol = 0;
        } else symbol++;
      }
      return `line ${line} symbol ${symbol}`;
    };
    return `\nparse error near ${rule} (${at(begin)} - ${at(end)}):\n${goQuote(this.buffer.slice(begin, end).join(""))}\n`;
  }
}

/** Go's strconv.Quote for the text of a token: printable runes as they are, the rest escaped. */
function goQuote(text: string): string {
  let out = '"';
  for (const c of text) {
    const code = c.codePointAt(0)!;
    if (c === '"' || c === "\\") out += `\\${c}`;
    else if (c === "\n") out += "\\n";
    else if (c === "\t") out += "\\t";
    else if (c === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += c;
  }
  return `${out}"`;
}
