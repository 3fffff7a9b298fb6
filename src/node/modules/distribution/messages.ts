import { moduleAddress } from "../../../codec/addresses.js";
import { sdkError } from "../../abci/txError.js";
import { getAccount } from "../auth/keeper.js";
import { coinsFromProto, formatCoins, sendCoins } from "../bank/keeper.js";
import { validCoinsOrEmpty } from "../shared/coinChecks.js";
import type { ExecContext, MsgRoute } from "../nodeModule.js";
import { decCoinsAdd, decCoinsFromCoins } from "../shared/decMath.js";
import { accountBytes, accountSigner, isEmpty, operatorAccount, operatorAddressBytes } from "../shared/msgAddresses.js";
import { getDelegation, getValidator } from "../staking/keeper.js";
import { DISTRIBUTION_ACCOUNT } from "./genesis.js";
import { distributionError } from "./errors.js";
import { withdrawAddressKey } from "./keys.js";
import { readDistributionParams } from "./queries.js";
import { initializeDelegation, withdrawDelegationRewards, withdrawValidatorCommission } from "./rewards.js";
import { distribution, getCommunityPool, setCommunityPool } from "./state.js";
import { fieldText } from "../../../codec/fieldText.js";

/** The Msgs of x/distribution (v0.41 msg.go ValidateBasic, keeper/msg_server.go), with the real errors and events. */

const message = (ctx: ExecContext, sender: unknown) =>
  ctx.emit({
    type: "message",
    attributes: [
      { key: "module", value: "distribution" },
      { key: "sender", value: String(sender) },
    ],
  });

/** The real keeper's blocked addresses: module accounts do not receive external funds. */
export async function requireNotModuleAccount(ctx: ExecContext, address: Uint8Array, text: string): Promise<void> {
  const account = await getAccount(ctx.storeOf("auth"), ctx.codec, address);
  if (account?.typeName === "core.auth.v1beta1.ModuleAccount") throw sdkError("unauthorized", `${text} is not allowed to receive external funds`);
}

export const distributionMessages: Record<string, MsgRoute> = {
  "core.distribution.v1beta1.MsgSetWithdrawAddress": {
    action: "set_withdraw_address",
    signers: (msg, chain) => [accountSigner(msg.delegator_address, chain.bech32Prefix)],
    validateBasic(msg) {
      if (isEmpty(msg, "delegator_address")) throw distributionError("emptyDelegatorAddr");
      if (isEmpty(msg, "withdraw_address")) throw distributionError("emptyWithdrawAddr");
    },
    async handler(msg, ctx) {
      const delegator = accountBytes(msg.delegator_address, ctx);
      const withdraw = accountBytes(msg.withdraw_address, ctx);
      await requireNotModuleAccount(ctx, withdraw, String(msg.withdraw_address));
      if (!(await readDistributionParams(distribution(ctx), ctx)).withdraw_addr_enabled) throw distributionError("setWithdrawAddrDisabled");
      ctx.emit({ type: "set_withdraw_address", attributes: [{ key: "withdraw_address", value: String(msg.withdraw_address) }] });
      distribution(ctx).set(withdrawAddressKey(delegator), withdraw);
      message(ctx, msg.delegator_address);
      return {};
    },
  },

  "core.distribution.v1beta1.MsgWithdrawDelegatorReward": {
    action: "withdraw_delegator_reward",
    signers: (msg, chain) => [accountSigner(msg.delegator_address, chain.bech32Prefix)],
    validateBasic(msg) {
      if (isEmpty(msg, "delegator_address")) throw distributionError("emptyDelegatorAddr");
      if (isEmpty(msg, "validator_address")) throw distributionError("emptyValidatorAddr");
    },
    async handler(msg, ctx) {
      const operator = operatorAddressBytes(msg.validator_address, ctx);
      const delegator = accountBytes(msg.delegator_address, ctx);
      const staking = ctx.storeOf("staking");
      const validator = await getValidator(staking, ctx, operator);
      if (!validator) throw distributionError("noValidatorDistInfo");
      const delegation = await getDelegation(staking, ctx, delegator, operator);
      if (!delegation) throw distributionError("emptyDelegationDistInfo");
      const rewards = await withdrawDelegationRewards(ctx, validator, delegation);
      ctx.emit({
        type: "withdraw_rewards",
        attributes: [
          { key: "amount", value: formatCoins(rewards) },
          { key: "validator", value: String(msg.validator_address) },
        ],
      });
      await initializeDelegation(ctx, operator, delegator);
      message(ctx, msg.delegator_address);
      return {};
    },
  },

  "core.distribution.v1beta1.MsgWithdrawValidatorCommission": {
    action: "withdraw_validator_commission",
    signers: (msg, chain) => [operatorAccount(msg.validator_address, chain.bech32Prefix)],
    validateBasic(msg) {
      if (isEmpty(msg, "validator_address")) throw distributionError("emptyValidatorAddr");
    },
    async handler(msg, ctx) {
      const commission = await withdrawValidatorCommission(ctx, operatorAddressBytes(msg.validator_address, ctx));
      ctx.emit({ type: "withdraw_commission", attributes: [{ key: "amount", value: formatCoins(commission) }] });
      message(ctx, msg.validator_address);
      return {};
    },
  },

  "core.distribution.v1beta1.MsgFundCommunityPool": {
    action: "fund_community_pool",
    signers: (msg, chain) => [accountSigner(msg.depositor, chain.bech32Prefix)],
    validateBasic(msg) {
      validCoinsOrEmpty(msg.amount);
      if (isEmpty(msg, "depositor")) throw sdkError("invalidAddress", fieldText(msg.depositor));
    },
    async handler(msg, ctx) {
      accountBytes(msg.depositor, ctx);
      const amount = coinsFromProto(msg.amount);
      await sendCoins(ctx, String(msg.depositor), moduleAddress(ctx.chain.bech32Prefix, DISTRIBUTION_ACCOUNT), amount);
      setCommunityPool(ctx, decCoinsAdd(await getCommunityPool(ctx), decCoinsFromCoins(amount)));
      message(ctx, msg.depositor);
      return {};
    },
  },
};
