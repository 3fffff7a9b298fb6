import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { devAccountsPath, type DevAccounts } from "./home.js";

/** Up to this size the file is parsed whole (about 1,000 accounts). */
const WHOLE_FILE_BYTES = 1 << 18;

/**
 * The mnemonic and the first `count` accounts of {home}/config/dev-accounts.json, read as a
 * stream that stops there: `init --accounts 1000000` writes a file of a hundred megabytes,
 * which `start` must not parse to print ten lines. `more`: whether the file lists others.
 */
export async function readDevAccountsHead(home: string, count: number): Promise<(DevAccounts & { more: boolean }) | undefined> {
  const file = devAccountsPath(home);
  if (!fs.existsSync(file)) return undefined;
  if (fs.statSync(file).size <= WHOLE_FILE_BYTES) {
    const whole = JSON.parse(fs.readFileSync(file, "utf8")) as DevAccounts;
    return { mnemonic: whole.mnemonic, accounts: whole.accounts.slice(0, count), more: whole.accounts.length > count };
  }
  // stream-json loaded only for a large file: loading it was most of the time a start took for ten lines
  const [{ default: parser }, { default: pick }, { default: streamValues }] = await Promise.all([
    import("stream-json/parser.js"),
    import("stream-json/filters/pick.js"),
    import("stream-json/streamers/stream-values.js"),
  ]);
  const head: DevAccounts & { more: boolean } = { mnemonic: "", accounts: [], more: false };
  const ac = new AbortController();
  try {
    await pipeline(
      fs.createReadStream(file),
      parser.asStream(),
      pick.asStream({ filter: /^(mnemonic|accounts\.\d+)$/ }),
      streamValues.asStream(),
      async (values: AsyncIterable<{ value: unknown }>) => {
        for await (const { value } of values) {
          if (typeof value === "string") head.mnemonic = value;
          else if (head.accounts.length < count) head.accounts.push(value as DevAccounts["accounts"][number]);
          else {
            head.more = true;
            ac.abort();
          }
        }
      },
      { signal: ac.signal },
    );
  } catch (err) {
    if (!ac.signal.aborted) throw err;
  }
  return head;
}
