import { JsonPoster, PostFailed } from "../client/jsonPost.js";
import { printProduct } from "./productOutput.js";
import { printCommandError } from "./productOutput.js";

/** advance_blocks of the 10,000 blocks it allows takes minutes: the call may take this long. */
const CALL_TIMEOUT_MS = 60 * 60_000;

/** Calls a steering method on the node and prints its result as JSON; prints the error and sets exit code 1 otherwise. */
export async function printDevCall(node: string, method: string, params: Record<string, unknown>): Promise<void> {
  let url: URL;
  try {
    url = new URL(node);
  } catch {
    return fail(`--node ${node} is not a URL (e.g. ${"http://127.0.0.1:26657"})`);
  }
  const poster = new JsonPoster(url.href, CALL_TIMEOUT_MS);
  try {
    const answer = await poster.post(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }));
    let reply: { result?: unknown; error?: { code: number; message: string; data?: string } };
    try {
      reply = JSON.parse(answer.text) as typeof reply;
    } catch {
      return fail(`${url.href} answered HTTP ${answer.status} without a JSON-RPC body`);
    }
    if (reply.error) return fail(`${method}: ${reply.error.message} (${reply.error.code})${reply.error.data ? `: ${reply.error.data}` : ""}`);
    printProduct(JSON.stringify(reply.result));
  } catch (err) {
    fail(`cannot reach the node at ${url.href}: ${err instanceof PostFailed ? err.reason : (err as Error).message}`);
  } finally {
    poster.close();
  }
}

function fail(message: string): void {
  printCommandError(message);
  process.exitCode = 1;
}
