import { moduleError, TxError } from "../../abci/txError.js";

/** The registered errors of x/staking (codespace "staking"), v0.41 types/errors.go. */
const STAKING = {
  emptyValidatorAddr: [2, "empty validator address"],
  badValidatorAddr: [3, "validator address is invalid"],
  noValidatorFound: [4, "validator does not exist"],
  validatorOwnerExists: [5, "validator already exist for this operator address; must use new validator operator address"],
  validatorPubKeyExists: [6, "validator already exist for this pubkey; must use new validator pubkey"],
  validatorPubKeyTypeNotSupported: [7, "validator pubkey type is not supported"],
  commissionNegative: [10, "commission must be positive"],
  commissionHuge: [11, "commission cannot be more than 100%"],
  commissionGTMaxRate: [12, "commission cannot be more than the max rate"],
  commissionUpdateTime: [13, "commission cannot be changed more than once in 24h"],
  commissionChangeRateNegative: [14, "commission change rate must be positive"],
  commissionChangeRateGTMaxRate: [15, "commission change rate cannot be more than the max rate"],
  commissionGTMaxChangeRate: [16, "commission cannot be changed more than max change rate"],
  selfDelegationBelowMinimum: [17, "validator's self delegation must be greater than their minimum self delegation"],
  minSelfDelegationDecreased: [19, "minimum self delegation cannot be decrease"],
  emptyDelegatorAddr: [20, "empty delegator address"],
  badDenom: [21, "invalid coin denomination"],
  noDelegation: [24, "no delegation for (address, validator) tuple"],
  noDelegatorForAddress: [26, "delegator does not contain delegation"],
  insufficientShares: [27, "insufficient delegation shares"],
  notEnoughDelegationShares: [29, "not enough delegation shares"],
  badSharesAmount: [30, "invalid shares amount"],
  maxUnbondingDelegationEntries: [34, "too many unbonding delegation entries for (delegator, validator) tuple"],
  selfRedelegation: [37, "cannot redelegate to the same validator"],
  tinyRedelegationAmount: [38, "too few tokens to redelegate (truncates to zero tokens)"],
  badRedelegationDst: [39, "redelegation destination validator not found"],
  transitiveRedelegation: [40, "redelegation to this validator already in progress; first redelegation to this validator must complete before next redelegation"],
  maxRedelegationEntries: [41, "too many redelegation entries for (delegator, src-validator, dst-validator) tuple"],
  delegatorShareExRateInvalid: [42, "cannot delegate to validators with invalid (zero) ex-rate"],
  emptyValidatorPubKey: [47, "empty validator public key"],
} as const;

export function stakingError(name: keyof typeof STAKING, detail?: string): TxError {
  const [code, description] = STAKING[name];
  return moduleError("staking", code, description, detail);
}

/**
 * An error the real code returns without a registered code (a plain Go error,
 * e.g. from bech32 decoding): code 1 in codespace "undefined", the text as log.
 */
export function plainError(text: string): TxError {
  return moduleError("undefined", 1, text);
}

/** What the real app answers when its code panics (a GetSigners on an address that does not decode, an unregistered param key): ErrPanic. */
export function panicError(text: string): TxError {
  return moduleError("undefined", 111222, "panic", `recovered: ${text}`);
}
