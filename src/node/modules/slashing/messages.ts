import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { MsgRoute } from "../nodeModule.js";
import { decFromWire, decTruncateInt } from "../shared/decMath.js";
import { isEmpty, operatorAccount, operatorAddressBytes } from "../shared/msgAddresses.js";
import { unjailValidator } from "../staking/delegation.js";
import { timestampDate } from "../shared/goTime.js";
import { consensusAddressOf, getDelegation, getValidator, tokensFromShares } from "../staking/keeper.js";
import { SIGNING_INFO_TYPE, signingInfoKey } from "./keys.js";
import { slashingError } from "./errors.js";
import { fieldText } from "../../../codec/fieldText.js";

/** MsgUnjail of x/slashing (v0.41 keeper/unjail.go): a jailed validator with enough self-delegation, out of its jail time, rejoins. */
export const slashingMessages: Record<string, MsgRoute> = {
  "core.slashing.v1beta1.MsgUnjail": {
    action: "unjail",
    signers: (msg, chain) => [operatorAccount(msg.validator_addr, chain.bech32Prefix)],
    validateBasic(msg) {
      if (isEmpty(msg, "validator_addr")) throw slashingError("badValidatorAddr");
    },
    async handler(msg, ctx) {
      const operator = operatorAddressBytes(msg.validator_addr, ctx);
      const staking = ctx.storeOf("staking");
      const validator = await getValidator(staking, ctx, operator);
      if (!validator) throw slashingError("noValidatorForAddress");
      const self = await getDelegation(staking, ctx, operator, operator);
      if (!self) throw slashingError("missingSelfDelegation");
      const tokens = decTruncateInt(tokensFromShares(validator, decFromWire(self.shares as string)));
      const minSelf = BigInt(fieldText(validator.min_self_delegation, "0"));
      if (tokens < minSelf) throw slashingError("selfDelegationTooLowToUnjail", `${tokens} less than ${minSelf}`);
      if (!validator.jailed) throw slashingError("validatorNotJailed");
      const bytes = await ctx.storeOf("slashing").get(signingInfoKey(consensusAddressOf(validator, ctx)));
      if (bytes) {
        const info = ctx.codec.type(SIGNING_INFO_TYPE).decode(bytes) as unknown as ProtoMessage;
        if (info.tombstoned) throw slashingError("validatorJailed");
        if (ctx.time.getTime() < timestampDate(info.jailed_until as ProtoMessage).getTime()) throw slashingError("validatorJailed");
      }
      unjailValidator(ctx, operator, validator);
      ctx.emit({
        type: "message",
        attributes: [
          { key: "module", value: "slashing" },
          { key: "sender", value: String(msg.validator_addr) },
        ],
      });
      return {};
    },
  },
};
