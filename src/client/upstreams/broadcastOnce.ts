import { createHash } from "node:crypto";
import { NodeUnavailableError, type BroadcastMode, type BroadcastResult, type TxResult } from "../chainClient.js";
import { leastLoaded } from "./nodeChoice.js";
import type { UpstreamRequestScope } from "./requestScope.js";
import type { NodePool } from "./nodePool.js";
import type { UpstreamNode } from "./upstreamNode.js";

/**
 * Sends a transaction to one eligible node. When that node fails for a
 * transport reason it may still have received the transaction, so it is never
 * sent again blindly: its hash (sha256 of the bytes) is looked up on every
 * node first, the failed one included. Found, its inclusion is the answer.
 * Not found, it is sent once to another node, but only when the failed node
 * cannot have it: it said so itself, or its connection was refused. When the
 * failed node cannot be asked after a reset or a timeout, its own blocks may
 * hold the transaction and nobody else can tell: it is not sent again and the
 * answer says so. What happened is told in the request's scope (the
 * X-Chain-Rest-Broadcast header).
 */
export async function broadcastOnce(client: NodePool, tx: Uint8Array, mode: BroadcastMode, scope?: UpstreamRequestScope): Promise<BroadcastResult> {
  const tell = (note: string) => {
    if (scope) scope.broadcastNote = note;
  };
  const eligible = client.eligibleNodes();
  const first = leastLoaded(eligible.filter((n) => !n.archive)) ?? leastLoaded(eligible);
  if (!first) throw client.noneEligible();
  try {
    const result = await client.run(first, () => first.rpc.broadcastTx(tx, mode), scope);
    tell(`sent once, to ${first.address}`);
    return result;
  } catch (err) {
    if (!(err instanceof NodeUnavailableError)) throw err;
    const hash = createHash("sha256").update(tx).digest();
    const hashHex = hash.toString("hex").toUpperCase();
    const why = `${first.address} failed (${err.message})`;
    const lookup = await lookUp(client, hash, first);
    if (lookup.found) {
      tell(`${why}; tx ${hashHex} found in block ${lookup.found.tx.height} on ${lookup.found.node.address}: not sent again`);
      return fromInclusion(lookup.found.tx, hashHex, mode);
    }
    if (!err.neverDelivered && !lookup.failedNodeAnswered) {
      tell(
        `${why}; tx ${hashHex} not found on the nodes that answered, and ${first.address}, which may have it, cannot be asked: not sent again (look it up by its hash before sending it again)`,
      );
      throw err;
    }
    const others = client.eligibleNodes().filter((n) => n !== first);
    const second = leastLoaded(others.filter((n) => !n.archive)) ?? leastLoaded(others);
    if (!second) {
      tell(`${why}; tx ${hashHex} not found on any node and no other node is eligible: not sent again`);
      throw err;
    }
    const result = await client.run(second, () => second.rpc.broadcastTx(tx, mode), scope);
    tell(`${why}; tx ${hashHex} not found on any node by its hash; sent once more, to ${second.address}`);
    return result;
  }
}

/**
 * The transaction's inclusion on some reachable node (the one that failed
 * included: it may answer again), and whether the failed node answered the
 * lookup at all (a "not found" from it is an answer).
 */
async function lookUp(
  client: NodePool,
  hash: Uint8Array,
  failed: UpstreamNode,
): Promise<{ found?: { node: UpstreamNode; tx: TxResult }; failedNodeAnswered: boolean }> {
  let failedNodeAnswered = false;
  const answers = await Promise.all(
    client.nodes
      .filter((n) => n === failed || client.usable(n))
      .map(async (node) => {
        try {
          return { node, tx: await node.rpc.tx(hash) };
        } catch (err) {
          if (node === failed && !(err instanceof NodeUnavailableError)) failedNodeAnswered = true;
          return undefined; // not there, or the node cannot say
        }
      }),
  );
  const found = answers.find((a) => a !== undefined);
  return { ...(found ? { found } : {}), failedNodeAnswered: failedNodeAnswered || found?.node === failed };
}

/** The broadcast answer a node would have given for a transaction already in a block. */
function fromInclusion(found: TxResult, hash: string, mode: BroadcastMode): BroadcastResult {
  const result = found.tx_result as { code?: number; data?: string; log?: string; codespace?: string };
  const base = { code: Number(result.code ?? 0), data: result.data ?? "", log: result.log ?? "", codespace: result.codespace ?? "", hash };
  if (mode !== "commit") return base;
  return { ...base, check_tx: { code: 0 }, deliver_tx: found.tx_result, height: found.height };
}
