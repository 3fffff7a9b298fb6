/**
 * Scanners for number texts of requests. Each reads its input once, left to
 * right, so its time is linear in the input's length whatever the input is
 * (a backtracking regex such as /^(\d+\.?\d*)$/ is quadratic on "<digits>x").
 */

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/** Index past the run of ASCII digits starting at `from`. */
export function skipDigits(text: string, from: number): number {
  let i = from;
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  return i;
}

/**
 * A decimal float: an optional sign ("-" always, "+" when `plus`), digits with
 * an optional "." (a digit on at least one side), an optional exponent
 * ("e" or "E", a sign, digits). No spaces, "Inf", "NaN" or hex forms.
 */
export function isDecimalFloatText(text: string, plus: boolean): boolean {
  let i = 0;
  const sign = text.charCodeAt(0);
  if (sign === 45 /* - */ || (plus && sign === 43) /* + */) i++;
  const intEnd = skipDigits(text, i);
  let digits = intEnd - i;
  i = intEnd;
  if (text.charCodeAt(i) === 46 /* . */) {
    const fractionEnd = skipDigits(text, i + 1);
    digits += fractionEnd - i - 1;
    i = fractionEnd;
  }
  if (digits === 0) return false;
  const e = text.charCodeAt(i);
  if (e === 101 || e === 69 /* e E */) {
    i++;
    const expSign = text.charCodeAt(i);
    if (expSign === 43 || expSign === 45) i++;
    const expEnd = skipDigits(text, i);
    if (expEnd === i) return false;
    i = expEnd;
  }
  return i === text.length;
}

/** An integer in its one JSON form: "-"?, then "0" or digits without a leading zero. */
export function isPlainIntegerText(text: string): boolean {
  const start = text.charCodeAt(0) === 45 ? 1 : 0;
  const end = skipDigits(text, start);
  if (end !== text.length || end === start) return false;
  return text.charCodeAt(start) !== 48 || end === start + 1;
}
