import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { notFound } from "../../abci/queryError.js";
import { bytesEqual } from "../../store/keyEncoding.js";
import { accountAddressParam, validatorAddressParam } from "../shared/addressField.js";
import type { QueryHandler } from "../nodeModule.js";
import { redelegationResponses } from "./queries.js";
import { REDELEGATION_PREFIX, redelegationKey, redelegationsBySrcPrefix, redelegationsOfPrefix, splitAddresses } from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";

const RED_TYPE = "core.staking.v1beta1.Redelegation";

/**
 * core.staking.v1beta1.LegacyQuerier: the legacy querier's queries that the
 * Query service lacks (keeper/querier.go of the earlier version), for the
 * legacy routes.
 */
export const stakingLegacyQueries: Record<string, QueryHandler> = {
  /** queryRedelegations: every address optional; not paginated. */
  async Redelegations(request, ctx) {
    const type = ctx.codec.type(RED_TYPE);
    const given = (value: unknown) => fieldText(value) !== "";
    const delegator = given(request.delegator_addr) ? accountAddressParam(request.delegator_addr, "delegator_addr", ctx) : undefined;
    const src = given(request.src_validator_addr) ? validatorAddressParam(request.src_validator_addr, "src_validator_addr", ctx) : undefined;
    const dst = given(request.dst_validator_addr) ? validatorAddressParam(request.dst_validator_addr, "dst_validator_addr", ctx) : undefined;
    const found: ProtoMessage[] = [];
    if (delegator && src && dst) {
      const bytes = await ctx.store.get(redelegationKey(delegator, src, dst));
      if (!bytes) throw notFound("no redelegation found");
      found.push(type.decode(bytes));
    } else if (!delegator && src && !dst) {
      // GetRedelegationsFromSrcValidator: the source validator's index
      for await (const [key] of ctx.store.iterate(redelegationsBySrcPrefix(src))) {
        const [owner, to] = splitAddresses(key);
        const bytes = await ctx.store.get(redelegationKey(owner!, src, to!));
        if (bytes) found.push(type.decode(bytes));
      }
    } else {
      // GetAllRedelegations: the delegator's (everyone's without one), filtered by the validators given
      const prefix = delegator ? redelegationsOfPrefix(delegator) : REDELEGATION_PREFIX;
      for await (const [key, value] of ctx.store.iterate(prefix)) {
        const parts = splitAddresses(key);
        const [from, to] = delegator ? parts : parts.slice(1);
        if ((src && !bytesEqual(from!, src)) || (dst && !bytesEqual(to!, dst))) continue;
        found.push(type.decode(value));
      }
    }
    return { redelegation_responses: await redelegationResponses(found, ctx) };
  },
};
