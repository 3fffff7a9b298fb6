import { expect } from "chai";
import { gasAdjustment } from "../../src/legacy/baseReq.js";
import { Proto3JsonParser } from "../../src/codec/json/parseProto3.js";
import { parseJsonKeepingNumberForms } from "../../src/codec/json/jsonNumberForms.js";
import { goDurationSeconds } from "../../src/codec/goDuration.js";
import { parseDec } from "../../src/codec/decimal.js";
import { parseBase64, parseIntegerText } from "../../src/codec/scalarText.js";
import { parseDuration, parseTimestamp } from "../../src/codec/wellKnownTime.js";
import { intTextOutOfRange } from "../../src/codec/sdkNumberRange.js";
import { checkBigNumberFields } from "../../src/node/tx/bigNumberFields.js";
import { testCodec } from "../helpers/testCodec.js";

/**
 * Every parser that reads request text runs in time linear in its input. No
 * wall clock: the CPU time of the same parser on a 100,000-character input is
 * compared with a 10,000-character one in this process. Linear work grows
 * about 10x; a backtracking regex on "<digits>x" grows 100x (quadratic). The
 * bound, 35x, leaves room for noise on either side.
 */
const SMALL = 10_000;
const LARGE = 100_000;
const MAX_RATIO = 35;

const codec = testCodec();
const proto3 = new Proto3JsonParser(codec.root);
const Coin = codec.type("core.base.v1beta1.Coin");

const digits = (n: number) => "1".repeat(n);
const swallow = (fn: () => unknown) => () => {
  try {
    fn();
  } catch {
    // refused: what is measured is the time to refuse
  }
};

interface Row {
  name: string;
  /** The input of about n characters. */
  input: (n: number) => string;
  parse: (text: string) => void;
}

const ROWS: Row[] = [
  { name: "gas_adjustment: digits then x", input: (n) => digits(n) + "x", parse: (t) => swallow(() => gasAdjustment(t))() },
  { name: "gas_adjustment: digits.digits then x", input: (n) => `${digits(n / 2)}.${digits(n / 2)}x`, parse: (t) => swallow(() => gasAdjustment(t))() },
  { name: "proto3 float string: digits then x", input: (n) => digits(n) + "x", parse: (t) => swallow(() => proto3.parseValue({ kind: "float" }, t, "f"))() },
  { name: "Go duration (coinswap deadline): digits then x", input: (n) => digits(n) + "x", parse: (t) => swallow(() => goDurationSeconds(t))() },
  { name: "Go duration: digits.digits then x", input: (n) => `${digits(n / 2)}.${digits(n / 2)}x`, parse: (t) => swallow(() => goDurationSeconds(t))() },
  { name: "Go duration: many components", input: (n) => "1s".repeat(n / 2), parse: (t) => swallow(() => goDurationSeconds(t))() },
  { name: "Dec: digits", input: digits, parse: (t) => swallow(() => parseDec(t))() },
  { name: "Dec: digits then x", input: (n) => digits(n) + "x", parse: (t) => swallow(() => parseDec(t))() },
  { name: "uint64 text: digits", input: digits, parse: (t) => swallow(() => parseIntegerText(t, "uint64"))() },
  { name: "sdk.Int range: digits", input: digits, parse: (t) => void intTextOutOfRange(t) },
  { name: "sdk.Int range: leading zeros", input: (n) => "0".repeat(n) + "1", parse: (t) => void intTextOutOfRange(t) },
  { name: "proto3 sdk.Int amount (Coin JSON)", input: digits, parse: (t) => swallow(() => proto3.parse(Coin, { denom: "uhub", amount: t }))() },
  { name: "decoded Coin amount (node)", input: digits, parse: (t) => swallow(() => checkBigNumberFields(Coin, { denom: "uhub", amount: t }))() },
  { name: "Duration JSON: digits then x", input: (n) => digits(n) + "x", parse: (t) => swallow(() => parseDuration(t))() },
  { name: "Timestamp JSON: digits", input: digits, parse: (t) => swallow(() => parseTimestamp(t))() },
  { name: "base64: letters then !", input: (n) => "A".repeat(n) + "!", parse: (t) => swallow(() => parseBase64(t))() },
  { name: "JSON body: numbers in exponent form", input: (n) => `[${"1e5,".repeat(n / 4)}1]`, parse: (t) => swallow(() => parseJsonKeepingNumberForms(t))() },
  { name: "JSON body: a long exponent number", input: (n) => `{"a":1${"0".repeat(n)}e-999}`, parse: (t) => swallow(() => parseJsonKeepingNumberForms(t))() },
  { name: "JSON body: long strings with escapes", input: (n) => `["${'\\"'.repeat(n / 2)}"]`, parse: (t) => swallow(() => parseJsonKeepingNumberForms(t))() },
];

/** CPU microseconds of `reps` parses of `text`, the least of five runs (noise only adds). */
function cpuMicros(row: Row, text: string, reps: number): number {
  let least = Infinity;
  for (let run = 0; run < 5; run++) {
    const start = process.cpuUsage();
    for (let i = 0; i < reps; i++) row.parse(text);
    const used = process.cpuUsage(start);
    least = Math.min(least, used.user + used.system);
  }
  return least;
}

describe("hardening: parsers of request text run in linear time", function () {
  this.timeout(120_000);
  for (const row of ROWS) {
    it(row.name, () => {
      const small = row.input(SMALL);
      const large = row.input(LARGE);
      row.parse(small); // compiled before measuring
      // enough repetitions that the small input costs a few ms, well above the clock's grain
      let reps = 1;
      while (cpuMicros(row, small, reps) < 2_000 && reps < 1 << 16) reps *= 2;
      const ratio = cpuMicros(row, large, reps) / cpuMicros(row, small, reps);
      expect(ratio, `${row.name}: 10x the input cost ${ratio.toFixed(1)}x the CPU time`).to.be.below(MAX_RATIO);
    });
  }
});
