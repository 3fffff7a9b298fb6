import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { paginate, type Page, type PageRequest } from "../abci/paginate.js";
import { concatBytes } from "../store/keyEncoding.js";
import type { QueryContext } from "../modules/nodeModule.js";
import { ADDRESS_LENGTH, delegationKey } from "../modules/staking/keys.js";
import { DELEGATION_TYPE } from "../modules/staking/keeper.js";
import { delegationsByValidatorPrefix } from "./indexKeys.js";
import { indexesAt } from "./indexReader.js";

/**
 * A page of a validator's delegations read from the index (O(page): one
 * index scan from the page's key, one point read per delegation of the page), or
 * undefined when the height has no index. The pages are v0.41's scan's: the
 * same delegations in the same (delegator) order, the same totals, and the
 * same next_key bytes (delegator ‖ validator, relative to the delegations'
 * prefix), so a key from either answers the next page of the other.
 */
export async function delegationsByIndex(operator: Uint8Array, request: PageRequest | undefined, ctx: QueryContext): Promise<Page<ProtoMessage> | undefined> {
  const index = await indexesAt(ctx);
  if (!index) return undefined;
  const type = ctx.codec.type(DELEGATION_TYPE);
  const key = request?.key && request.key.length > 0 ? request.key.subarray(0, ADDRESS_LENGTH) : undefined;
  // each index entry has its delegation (the same batch writes both): the scan, and a count past
  // the page, read index keys only; the page's delegations are read after it, together
  const page = await paginate(index, delegationsByValidatorPrefix(operator), request && { ...request, key }, (delegator) => delegator);
  const delegations = await Promise.all(page.items.map((delegator) => ctx.store.get(delegationKey(delegator, operator))));
  const items = delegations.filter((bytes) => bytes !== undefined).map((bytes) => type.decode(bytes) as unknown as ProtoMessage);
  const result: Page<ProtoMessage> = { items, pagination: page.pagination };
  const nextKey = page.pagination.next_key as Uint8Array | undefined;
  if (nextKey) result.pagination.next_key = concatBytes(nextKey, operator);
  return result;
}
