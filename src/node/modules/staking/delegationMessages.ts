import { formatDec } from "../../../codec/decimal.js";
import type { MsgRoute } from "../nodeModule.js";
import { toTimestamp } from "../shared/genesisChecks.js";
import { rfc3339, ZERO_TIMESTAMP } from "../shared/goTime.js";
import { accountBytes, accountSigner, isEmpty, operatorAddressBytes } from "../shared/msgAddresses.js";
import { beginRedelegation, delegate, undelegate, validateUnbondAmount } from "./delegation.js";
import { stakingError } from "./errors.js";
import { BondStatus, getValidator } from "./keeper.js";
import { coinOf, positiveCoin, requireBondDenom, stakingMessage } from "./msgChecks.js";
import { staking } from "./store.js";

/** MsgDelegate, MsgUndelegate and MsgBeginRedelegate (v0.41 msgs.go ValidateBasic, keeper/msg_server.go), with the real errors and events. */
export const delegationMessages: Record<string, MsgRoute> = {
  "core.staking.v1beta1.MsgDelegate": {
    action: "delegate",
    signers: (msg, chain) => [accountSigner(msg.delegator_address, chain.bech32Prefix)],
    validateBasic(msg) {
      if (isEmpty(msg, "delegator_address")) throw stakingError("emptyDelegatorAddr");
      if (isEmpty(msg, "validator_address")) throw stakingError("emptyValidatorAddr");
      positiveCoin(msg.amount, "invalid delegation amount");
    },
    async handler(msg, ctx) {
      const operator = operatorAddressBytes(msg.validator_address, ctx);
      if (!(await getValidator(staking(ctx), ctx, operator))) throw stakingError("noValidatorFound");
      const delegator = accountBytes(msg.delegator_address, ctx);
      const amount = coinOf(msg.amount);
      await requireBondDenom(ctx, amount.denom);
      const shares = await delegate(ctx, delegator, amount.amount, BondStatus.unbonded, operator, true);
      ctx.emit({
        type: "delegate",
        attributes: [
          { key: "validator", value: String(msg.validator_address) },
          { key: "amount", value: amount.amount.toString() },
          { key: "new_shares", value: formatDec(shares) },
        ],
      });
      stakingMessage(ctx, msg.delegator_address);
      return {};
    },
  },

  "core.staking.v1beta1.MsgUndelegate": {
    action: "begin_unbonding",
    signers: (msg, chain) => [accountSigner(msg.delegator_address, chain.bech32Prefix)],
    validateBasic(msg) {
      if (isEmpty(msg, "delegator_address")) throw stakingError("emptyDelegatorAddr");
      if (isEmpty(msg, "validator_address")) throw stakingError("emptyValidatorAddr");
      positiveCoin(msg.amount, "invalid shares amount");
    },
    async handler(msg, ctx) {
      const operator = operatorAddressBytes(msg.validator_address, ctx);
      const delegator = accountBytes(msg.delegator_address, ctx);
      const amount = coinOf(msg.amount);
      const shares = await validateUnbondAmount(ctx, delegator, operator, amount.amount);
      await requireBondDenom(ctx, amount.denom);
      const completion = await undelegate(ctx, delegator, operator, shares);
      ctx.emit({
        type: "unbond",
        attributes: [
          { key: "validator", value: String(msg.validator_address) },
          { key: "amount", value: amount.amount.toString() },
          { key: "completion_time", value: rfc3339(completion) },
        ],
      });
      stakingMessage(ctx, msg.delegator_address);
      return { completion_time: toTimestamp(completion) };
    },
  },

  "core.staking.v1beta1.MsgBeginRedelegate": {
    action: "begin_redelegate",
    signers: (msg, chain) => [accountSigner(msg.delegator_address, chain.bech32Prefix)],
    validateBasic(msg) {
      if (isEmpty(msg, "delegator_address")) throw stakingError("emptyDelegatorAddr");
      if (isEmpty(msg, "validator_src_address")) throw stakingError("emptyValidatorAddr");
      if (isEmpty(msg, "validator_dst_address")) throw stakingError("emptyValidatorAddr");
      positiveCoin(msg.amount, "invalid shares amount");
    },
    async handler(msg, ctx) {
      const src = operatorAddressBytes(msg.validator_src_address, ctx);
      const delegator = accountBytes(msg.delegator_address, ctx);
      const amount = coinOf(msg.amount);
      const shares = await validateUnbondAmount(ctx, delegator, src, amount.amount);
      await requireBondDenom(ctx, amount.denom);
      const dst = operatorAddressBytes(msg.validator_dst_address, ctx);
      const completion = await beginRedelegation(ctx, delegator, src, dst, shares);
      ctx.emit({
        type: "redelegate",
        attributes: [
          { key: "source_validator", value: String(msg.validator_src_address) },
          { key: "destination_validator", value: String(msg.validator_dst_address) },
          { key: "amount", value: amount.amount.toString() },
          { key: "completion_time", value: rfc3339(completion) },
        ],
      });
      stakingMessage(ctx, msg.delegator_address);
      return { completion_time: completion ? toTimestamp(completion) : ZERO_TIMESTAMP };
    },
  },
};
