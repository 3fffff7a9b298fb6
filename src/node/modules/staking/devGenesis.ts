import { formatDec } from "../../../codec/decimal.js";
import type { DevGenesisContext } from "../devGenesisContext.js";
import { decFromInt } from "../shared/decMath.js";
import { DEV_STAKE, days, devAddress, devValidators, tokensB, type DevValidator } from "../shared/devValidators.js";
import { BONDED_POOL, NOT_BONDED_POOL } from "./genesis.js";

const UNBONDING_DAYS = 21;

const dec = (value: bigint) => formatDec(decFromInt(value));
const at = (ctx: DevGenesisContext, offset: number) => new Date(ctx.genesisTime.getTime() + offset).toISOString();

/** The staking part of the development genesis (see devValidators.ts for the story). */
export function stakingDevGenesis(ctx: DevGenesisContext): unknown {
  const { a, b } = devValidators(ctx);
  const delegator1 = devAddress(ctx, 1);
  ctx.fund(ctx.moduleAccount(BONDED_POOL, ["burner", "staking"]), [{ denom: ctx.denom, amount: DEV_STAKE.tokensA.toString() }]);
  ctx.fund(ctx.moduleAccount(NOT_BONDED_POOL, ["burner", "staking"]), [{ denom: ctx.denom, amount: (tokensB + DEV_STAKE.unbondingFromA).toString() }]);
  const validator = (v: DevValidator, fields: Record<string, unknown>) => ({
    operator_address: v.operatorAddress,
    consensus_pubkey: { "@type": "/core.crypto.ed25519.PubKey", key: Buffer.from(v.consensusPublicKey).toString("base64") },
    ...fields,
    min_self_delegation: "1",
  });
  const description = (moniker: string, details: string) => ({ moniker, identity: "", website: "", security_contact: "", details });
  const commission = (rate: string, maxRate: string, maxChange: string) => ({
    commission_rates: { rate, max_rate: maxRate, max_change_rate: maxChange },
    update_time: at(ctx, -days(30)),
  });
  return {
    params: { unbonding_time: `${UNBONDING_DAYS * 86_400}s`, max_validators: 100, max_entries: 7, historical_entries: 10000, bond_denom: ctx.denom },
    last_total_power: DEV_STAKE.powerA.toString(),
    last_validator_powers: [{ address: a.operatorAddress, power: DEV_STAKE.powerA.toString() }],
    validators: [
      validator(a, {
        jailed: false,
        status: "BOND_STATUS_BONDED",
        tokens: DEV_STAKE.tokensA.toString(),
        delegator_shares: dec(DEV_STAKE.sharesA),
        description: description("validator-a", "The development node's own validator"),
        unbonding_height: "0",
        unbonding_time: "1970-01-01T00:00:00Z",
        commission: commission("0.100000000000000000", "0.200000000000000000", "0.010000000000000000"),
      }),
      validator(b, {
        jailed: true,
        status: "BOND_STATUS_UNBONDED",
        tokens: tokensB.toString(),
        delegator_shares: dec(tokensB),
        description: description("validator-b", "Jailed for double signing"),
        unbonding_height: "0",
        unbonding_time: at(ctx, -days(1)),
        commission: commission("0.050000000000000000", "0.100000000000000000", "0.010000000000000000"),
      }),
    ],
    delegations: [
      { delegator_address: a.accountAddress, validator_address: a.operatorAddress, shares: dec(DEV_STAKE.selfDelegationA) },
      { delegator_address: delegator1, validator_address: a.operatorAddress, shares: dec(DEV_STAKE.delegationA1) },
      { delegator_address: b.accountAddress, validator_address: b.operatorAddress, shares: dec(DEV_STAKE.selfDelegationB) },
      { delegator_address: delegator1, validator_address: b.operatorAddress, shares: dec(DEV_STAKE.redelegatedToB) },
    ],
    unbonding_delegations: [
      {
        delegator_address: delegator1,
        validator_address: a.operatorAddress,
        entries: [
          {
            creation_height: "0",
            completion_time: at(ctx, days(UNBONDING_DAYS)),
            initial_balance: DEV_STAKE.unbondingFromA.toString(),
            balance: DEV_STAKE.unbondingFromA.toString(),
          },
        ],
      },
    ],
    redelegations: [
      {
        delegator_address: delegator1,
        validator_src_address: a.operatorAddress,
        validator_dst_address: b.operatorAddress,
        entries: [
          {
            creation_height: "0",
            completion_time: at(ctx, days(UNBONDING_DAYS - 1)),
            initial_balance: DEV_STAKE.redelegatedToB.toString(),
            shares_dst: dec(DEV_STAKE.redelegatedToB),
          },
        ],
      },
    ],
    exported: true,
  };
}
