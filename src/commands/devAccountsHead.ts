import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import parser from "stream-json/parser.js";
import pick from "stream-json/filters/pick.js";
import streamValues from "stream-json/streamers/stream-values.js";
import { devAccountsPath, type DevAccounts } from "./home.js";

/**
 * The mnemonic and the first `count` accounts of {home}/config/dev-accounts.json, read as a
 * stream that stops there: `init --accounts 1000000` writes a file of a hundred megabytes,
 * which `start` must not parse to print ten lines. `more`: whether the file lists others.
 */
export async function readDevAccountsHead(home: string, count: number): Promise<(DevAccounts & { more: boolean }) | undefined> {
  const file = devAccountsPath(home);
  if (!fs.existsSync(file)) return undefined;
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
