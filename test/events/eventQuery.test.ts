import { expect } from "chai";
import { EventQuery, QueryParseError, QueryTooLongError } from "../../src/events/eventQuery.js";
import { parseConditions } from "../../src/events/queryGrammar.js";

/** Rows in the manner of Tendermint 0.34's parser_test.go: a query, and whether the grammar takes it. */
const GRAMMAR_ROWS: Array<[string, boolean]> = [
  ["tm.event='Tx'", true],
  ["tm.event = 'Tx'", true],
  ["memo.text = ''", true],
  ["memo.text='DATE'", true],
  ["memo.text='TIME'", true],
  ["memo.text='<='", true],
  ["memo.text='TIME", false],
  ["memo.text=TIME'", false],
  ["memo.text==", false],
  ["memo.text=Tx", false],
  ["<==", false],
  ["memo.text 'Tx' =", false],
  ["memo.text>'Tx'", false],
  ["memo.text<'Tx'", false],
  ["", false],
  ["=", false],
  ["='Tx'", false],
  ["memo.text=", false],
  ["memo.textTx", false],
  ["memo.text'Tx'", false],
  ["'Tx'", false],
  ["Tx", false],
  ["tm.event='Tx' AND transfer.recipient='hub1abc'", true],
  ["tm.event='Tx'  AND  transfer.recipient='hub1abc'", true],
  ["tm.event='Tx' AND", false],
  ["tm.event='Tx' and transfer.amount=5", false],
  ["tm.event='Tx' AN transfer.amount=5", false],
  ["AND tm.event='Tx'", false],
  ["tm.event='Tx' ", false],
  [" tm.event='Tx'", false],
  ["message.sender CONTAINS 'hub1'", true],
  ["message.sender CONTAINS 5", false],
  ["message.sender CONTAINS", false],
  ["block.day > DATE 2021-03-04", true],
  ["block.day < DATE 2021-03-04", true],
  ["block.day <= DATE 2021-03-04", true],
  ["block.day >= DATE 2021-03-04", true],
  ["block.day = DATE 2021-03-04", true],
  ["block.day >= DAT 2021-03-04", false],
  ["block.day <= DATE2021-03-04", false],
  ["block.day <= DATE -03-04", false],
  ["block.day >= DATE 20210304", false],
  ["block.day >= DATE 2021+03-04", false],
  ["block.day >= DATE 0021-03-04", false],
  ["block.day >= DATE 2021-41-04", false],
  ["block.day >= DATE 2021-03-54", false],
  ["block.at > TIME 2021-03-04T05:06:07+08:00", true],
  ["block.at < TIME 2021-03-04T05:06:07-01:30", true],
  ["block.at <= TIME 2021-03-04T05:06:07Z", true],
  ["block.at >= TIME2021-03-04T05:06:07Z", false],
  ["block.at = TIM 2021-03-04T05:06:07Z", false],
  ["block.at = TIME 2021-03-:06:07Z", false],
  ["block.at >= TIME 2021-03-04T05:06:07", false],
  ["block.at >= TIME 0021-00-00T05:06:07Z", false],
  ["block.at >= TIME 2021+03=04T05:06:07Z", false],
  ["tx.height=12", true],
  ["tx.height >= 0", true],
  ["tx.height >= 3.25", true],
  ["tx.height >= -3", false],
  ["tx.height >>= 3", false],
  ["tx.height = 3.2.1", false],
  ["tx.height = 03", false],
  ["tx.height = 0.5", false],
  ["slash.power EXISTS", true],
  ["slash.power EXISTS AND tx.height=3", true],
  ["tx.height=3 AND slash.power EXISTS", true],
  ["slash EXISTS", true],
  ["slash EXISTS 'x'", false],
  ["tx.hash='0A1B2C'", true],
  ["tx.hash=0A1B2C", false],
  ["tx.hash=''''", false],
  ["tx.hash='a\"b'", false],
  ["über.größe='ja'", true],
];

/** Rows in the manner of Tendermint 0.34's query_test.go: a query, events, whether it matches. */
const MATCH_ROWS: Array<[string, Record<string, string[]>, boolean]> = [
  ["tm.event='NewBlock'", { "tm.event": ["NewBlock"] }, true],
  ["tm.event='NewBlock'", { "tm.event": ["NewBlockHeader"] }, false],
  ["fee.gas > 3", { "fee.gas": ["4"] }, true],
  ["coin.amount > 3", { "coin.amount": ["4uhub"] }, true],
  ["coin.amount > 3", { "coin.amount": ["4.5uhub"] }, true],
  ["coin.amount > 3.25", { "coin.amount": ["4.5uhub"] }, true],
  ["coin.amount > 4.5", { "coin.amount": ["4.5uhub"] }, false],
  ["coin.amount >= 4.5", { "coin.amount": ["4.5uhub"] }, true],
  ["coin.amount = 4", { "coin.amount": ["4.9uhub"] }, true],
  ["fee.gas > 3 AND fee.gas < 5", { "fee.gas": ["4"] }, true],
  ["fee.gas > 3 AND fee.gas < 4", { "fee.gas": ["4"] }, false],
  ["pool.size < 100.0", { "pool.size": ["90"] }, true],
  ["pool.size <= 7", { "pool.size": ["7.0"] }, true],
  ["pool.size <= 7", { "pool.size": ["no number"] }, false],
  ["pool.size <= 7", { "pool.size": ["1.2.3"] }, false],
  ["pool.size < 7 AND bag.size > 10", { "pool.size": ["6"], "bag.size": ["11"] }, true],
  ["pool.size < 7", { "pool.size": ["8"] }, false],
  ["pool.size < 7", { "pool.size": ["99999999999999999999"] }, false],
  ["block.day > DATE 2020-06-30", { "block.day": ["2021-01-02"] }, true],
  ["block.day = DATE 2020-06-30", { "block.day": ["2020-06-30"] }, true],
  ["block.day = DATE 2020-06-30", { "block.day": ["2020-07-01"] }, false],
  ["block.day = DATE 2020-06-30", { "block.day": ["2020-06-30T00:00:00Z"] }, true],
  ["block.at >= TIME 2019-02-03T04:05:06Z", { "block.at": ["2019-02-03T05:05:06+01:00"] }, true],
  ["block.at > TIME 2019-02-03T04:05:06Z", { "block.at": ["2019-02-03T05:05:06+01:00"] }, false],
  ["block.at = TIME 2019-02-03T04:05:06Z", { "block.at": ["2020-02-03T04:05:06Z"] }, false],
  ["block.at < TIME 2019-02-03T04:05:06Z", { "block.at": ["yesterday"] }, false],
  ["owner.names CONTAINS 'Ada'", { "owner.names": ["Ada,Bo"] }, true],
  ["owner.names CONTAINS 'Ada'", { "owner.names": ["Cy,Bo"] }, false],
  ["owner.name = 'Ada'", { "owner.name": ["Ada", "Bo"] }, true],
  ["owner.name = 'Bo'", { "owner.name": ["Ada", "Bo"] }, true],
  ["owner.name = 'Bo' AND owner.name = 'Ada'", { "owner.name": ["Ada", "Bo"] }, true],
  ["owner.name = 'Bo' AND owner.name = 'Cy'", { "owner.name": ["Ada", "Bo"] }, false],
  ["tm.event='Tx' AND app.name='x'", { "tm.event": ["Tx"], "app.name": ["x"] }, true],
  ["tm.event='NewBlock' AND app.name='x'", { "tm.event": ["Tx"], "app.name": ["x"] }, false],
  ["slash EXISTS", { "slash.reason": ["double_sign"], "slash.power": ["10"] }, true],
  ["sl EXISTS", { "slash.reason": ["double_sign"] }, true],
  ["slash EXISTS", { "transfer.sender": ["a"] }, false],
  ["slash.reason EXISTS AND slash.power > 5", { "slash.reason": ["double_sign"], "slash.power": ["10"] }, true],
  ["slash.reason EXISTS AND slash.power > 5", { "slash.reason": ["double_sign"], "slash.power": ["4"] }, false],
  ["slash.reason EXISTS", { "transfer.sender": ["a"] }, false],
  ["slash.reason EXISTS", {}, false],
];

/** Refusals and the engine's error text (the query wrapped in quotes; symbols count from the opening quote). */
const ERROR_ROWS: Array<[string, string]> = [
  ["", '\nparse error near Unknown (line 1 symbol 1 - line 1 symbol 1):\n""\n'],
  ["tx.height=abc", '\nparse error near equal (line 1 symbol 11 - line 1 symbol 12):\n"="\n'],
  ["tx.height = 3.2.1", '\nparse error near digit (line 1 symbol 16 - line 1 symbol 17):\n"2"\n'],
  ["tm.event='Tx' AN x='y'", "\nparse error near PegText (line 1 symbol 11 - line 1 symbol 15):\n\"'Tx'\"\n"],
  ["a.b='x\ny' AND", '\nparse error near and (line 2 symbol 4 - line 2 symbol 7):\n"AND"\n'],
  ["tx.height > 99999999999999999999", "out of range while trying to parse 99999999999999999999 as int64"],
];

describe("event query language (Tendermint 0.34)", () => {
  for (const [query, valid] of GRAMMAR_ROWS) {
    it(`${valid ? "takes" : "refuses"} ${JSON.stringify(query)}`, () => {
      if (valid) expect(new EventQuery(query).conditions.length).to.be.at.least(1);
      else expect(() => new EventQuery(query)).to.throw(QueryParseError);
    });
  }

  for (const [query, events, expected] of MATCH_ROWS) {
    it(`${JSON.stringify(query)} ${expected ? "matches" : "does not match"} ${JSON.stringify(events)}`, () => {
      expect(new EventQuery(query).matches(new Map(Object.entries(events)))).to.equal(expected);
    });
  }

  for (const [query, message] of ERROR_ROWS) {
    it(`words the refusal of ${JSON.stringify(query)} as the engine does`, () => {
      expect(() => new EventQuery(query))
        .to.throw(QueryParseError)
        .with.property("message")
        .that.includes(message);
    });
  }

  it("reads conditions with their operators and converted operands", () => {
    const query = new EventQuery(
      "fee.gas > 7 AND fee.gas <= 9.5 AND block.at >= TIME 2013-05-03T14:45:00Z AND block.day = DATE 2013-05-03 AND slash EXISTS AND a.b CONTAINS 'c'",
    );
    expect(query.conditions).to.deep.equal([
      { key: "fee.gas", op: ">", operand: { kind: "int", value: 7n } },
      { key: "fee.gas", op: "<=", operand: { kind: "float", value: 9.5 } },
      { key: "block.at", op: ">=", operand: { kind: "time", value: Date.UTC(2013, 4, 3, 14, 45) } },
      { key: "block.day", op: "=", operand: { kind: "time", value: Date.UTC(2013, 4, 3) } },
      { key: "slash", op: "EXISTS" },
      { key: "a.b", op: "CONTAINS", operand: { kind: "string", value: "c" } },
    ]);
  });

  it("refuses a query over 512 bytes before parsing it, with the engine's words", () => {
    expect(() => new EventQuery(`a.b='${"x".repeat(507)}'`)).to.throw(QueryTooLongError, "maximum query length exceeded");
    expect(new EventQuery(`a.b='${"x".repeat(506)}'`).conditions).to.have.length(1);
  });

  it("parses in linear time: characters read grow with the input's length (counted, not timed)", () => {
    const shapes = [
      (n: number) => `a.b=${"1".repeat(n)}.`,
      (n: number) => "a".repeat(n),
      (n: number) => `a.b='${"x".repeat(n)}`,
      (n: number) => "a.b='x' AND ".repeat(n),
      (n: number) => `a.b >= TIME ${"2021-03-04T05:06:07Z ".repeat(n)}`,
      (n: number) => `a.b${" ".repeat(n)}<`,
    ];
    for (const shape of shapes) {
      const reads = (n: number) => {
        const counter = { count: 0 };
        try {
          parseConditions(shape(n), counter);
        } catch {
          // most of these are refused; what matters is the work done first
        }
        return counter.count;
      };
      expect(reads(10_000) / reads(1_000), shape(2)).to.be.below(10 * 2);
    }
  });
});
