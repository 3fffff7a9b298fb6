import { bech32Prefixes } from "../../codec/addresses.js";
import { decodeBech32Address, encodeBech32Address } from "../../codec/bech32.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import type { ExecContext } from "../modules/nodeModule.js";
import { applyValidatorSetUpdates } from "../modules/staking/blocks.js";
import { bondDenom, lastValidatorPowers, POWER_REDUCTION } from "../modules/staking/keeper.js";
import { stakingMessages } from "../modules/staking/messages.js";
import { updateStakingParam } from "../modules/staking/params.js";
import { fundForkAccounts } from "./forkFunding.js";
import { ForkError } from "./remoteState.js";

/** Commission of the fork's own validator (wire Decs, 18 decimals): 10%, at most 20%, changed by at most 1% a day. */
const COMMISSION = { rate: "100000000000000000", max_rate: "200000000000000000", max_change_rate: "10000000000000000" };

/**
 * `--fork-validator <operator account>`, in the fork's first version (the way an in-place
 * testnet swaps the validator set): this node's consensus key becomes a validator operated by
 * the account, self-bonded with coins minted to it (one consensus power more than the
 * strongest remote validator), and max_validators is set to 1, so that the staking end
 * block's own update bonds it alone and begins unbonding the remote ones (not jailed, not
 * slashed: they are simply out of the set, as if they had been outbid).
 */
export async function bondForkValidator(ctx: ExecContext, consensusPublicKey: Uint8Array, operatorAccount: string, moniker: string): Promise<void> {
  const staking = ctx.storeOf("staking");
  const prefixes = bech32Prefixes(ctx.chain.bech32Prefix);
  let operator: Uint8Array;
  try {
    operator = decodeBech32Address(operatorAccount, prefixes.account, "address");
  } catch {
    throw new ForkError(`--fork-validator ${JSON.stringify(operatorAccount.slice(0, 100))}: expected an account address (${prefixes.account}1...)`);
  }
  const strongest = (await lastValidatorPowers(staking)).reduce((max, { power }) => (power > max ? power : max), 0n);
  const value = { denom: await bondDenom(staking, ctx), amount: ((strongest + 1n) * POWER_REDUCTION).toString() };
  await fundForkAccounts(ctx, [{ address: operatorAccount, coins: [{ denom: value.denom, amount: BigInt(value.amount) }] }]);
  const pubkey = {
    type_url: "/core.crypto.ed25519.PubKey",
    value: ctx.codec.type("core.crypto.ed25519.PubKey").encode({ key: consensusPublicKey }).finish(),
  };
  const msg: ProtoMessage = {
    description: { moniker, identity: "", website: "", security_contact: "", details: "the fork's own validator (--fork-validator)" },
    commission: COMMISSION,
    min_self_delegation: "1",
    delegator_address: operatorAccount,
    validator_address: encodeBech32Address(prefixes.validatorOperator, operator),
    pubkey,
    value,
  };
  await stakingMessages["core.staking.v1beta1.MsgCreateValidator"]!.handler(msg, { ...ctx, store: staking });
  await updateStakingParam(staking, "MaxValidators", "1", ctx);
  await applyValidatorSetUpdates({ ...ctx, store: staking });
}
