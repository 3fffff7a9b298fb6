/**
 * The aggregate functions of irismod v1.3.1 oracle/types/aggregate.go over the values the feed's
 * value_json_path selects in each response's body (gjson's Float: a number, or a string read as one,
 * else 0), written with 8 decimals as strconv.FormatFloat(x, 'f', 8, 64).
 */
export const AGGREGATES: Record<string, (values: number[]) => number> = {
  max: (values) => values.reduce((max, v) => (max < v ? v : max), Number.MIN_VALUE),
  min: (values) => values.reduce((min, v) => (min > v ? v : min), Number.MAX_VALUE),
  avg: (values) => values.reduce((sum, v) => sum + v, 0) / values.length,
};

/** gjson.Get(output, "body").Get(path).Float(): a dotted path into the body. */
export function valueAt(output: string, path: string): number {
  let value: unknown;
  try {
    value = (JSON.parse(output) as { body?: unknown }).body;
  } catch {
    return 0;
  }
  for (const part of path.split(".")) {
    if (value === null || typeof value !== "object") return 0;
    value = (value as Record<string, unknown>)[part];
  }
  if (typeof value === "number") return value;
  if (typeof value === "string") {
    const parsed = Number.parseFloat(value);
    return Number.isNaN(parsed) ? 0 : parsed;
  }
  if (typeof value === "boolean") return value ? 1 : 0;
  return 0;
}

export function formatFeedValue(value: number): string {
  return value.toFixed(8);
}
