import { sha256 } from "@noble/hashes/sha2.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { bech32Prefixes, consensusAddressBytes } from "../../../codec/addresses.js";
import { decodeBech32Address, encodeBech32Address } from "../../../codec/bech32.js";
import type { DevAccount, DevGenesisContext } from "../devGenesisContext.js";

/**
 * The validators of the development chain, shared by the dev genesis of
 * staking, slashing, distribution, evidence and gov so that their states agree:
 *
 * - A: operator = dev account 0, the node's own consensus key, BONDED. It was
 *   slashed 1% for downtime at height 0 (a distribution slash event), after
 *   account 0 (self) and account 1 had delegated.
 * - B: operator = dev account 2, a fixed ed25519 key (seed sha256("validator-b")),
 *   jailed and tombstoned for double signing (the evidence), UNBONDED, with a
 *   small self-delegation and the tokens account 1 redelegated from A.
 */
export interface DevValidator {
  /** The operator's account address. */
  accountAddress: string;
  operatorAddress: string;
  operatorBytes: Uint8Array;
  consensusPublicKey: Uint8Array;
  consensusAddress: string;
}

export const DEV_STAKE = {
  selfDelegationA: 100_000_000_000n,
  delegationA1: 50_000_000_001n,
  /** A's delegator shares: self + account 1. */
  sharesA: 150_000_000_001n,
  /** A's tokens after the 1% slash of 150,000 power: 150000000001 - 1500000000. */
  tokensA: 148_500_000_001n,
  powerA: 148_500n,
  selfDelegationB: 500_000n,
  redelegatedToB: 10_000_000_000n,
  unbondingFromA: 5_000_000_000n,
} as const;

export const tokensB = DEV_STAKE.selfDelegationB + DEV_STAKE.redelegatedToB;

const DAY = 86_400_000;
export const days = (n: number) => n * DAY;

/** B's consensus key: deterministic, so that tests are stable. */
function validatorBKey(): Uint8Array {
  return ed25519.getPublicKey(sha256(new TextEncoder().encode("validator-b")));
}

export function devValidators(ctx: DevGenesisContext): { a: DevValidator; b: DevValidator } {
  const prefixes = bech32Prefixes(ctx.prefix);
  const make = (accountAddress: string, consensusPublicKey: Uint8Array): DevValidator => {
    const operatorBytes = decodeBech32Address(accountAddress, ctx.prefix, "address");
    return {
      accountAddress,
      operatorAddress: encodeBech32Address(prefixes.validatorOperator, operatorBytes),
      operatorBytes,
      consensusPublicKey,
      consensusAddress: encodeBech32Address(prefixes.consensus, consensusAddressBytes(consensusPublicKey)),
    };
  };
  return { a: make(devAddress(ctx, 0), ctx.consensusPublicKey), b: make(devAddress(ctx, 2), validatorBKey()) };
}

/**
 * The address of dev account `index`. A chain initialised with fewer accounts
 * gets a fixed stand-in address (no funds, no account) for the missing roles.
 */
export function devAddress(ctx: DevGenesisContext, index: number): string {
  const account: DevAccount | undefined = ctx.accounts[index];
  return account ? account.address : encodeBech32Address(ctx.prefix, sha256(new TextEncoder().encode(`dev-account-${index}`)).subarray(0, 20));
}
