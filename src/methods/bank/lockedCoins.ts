import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { fieldText } from "../../codec/fieldText.js";
import { neutralTypeUrl } from "../../codec/typeRegistry.js";

/** Coins as amounts by denom. */
export type CoinMap = Map<string, bigint>;

const VESTING = "/core.vesting.v1beta1.";
const DEC_ONE = 10n ** 18n;

function coinMap(coins: unknown): CoinMap {
  const map: CoinMap = new Map();
  for (const coin of (coins ?? []) as ProtoMessage[])
    map.set(fieldText(coin.denom), (map.get(fieldText(coin.denom)) ?? 0n) + BigInt(fieldText(coin.amount, "0")));
  return map;
}

const seconds = (value: unknown) => BigInt(fieldText(value, "0"));

/**
 * The coins a vesting account cannot spend at block time `now` (Unix seconds),
 * by v0.41's x/auth/vesting rules: LockedCoins = vesting − min(vesting,
 * delegated vesting), where vesting = original vesting − vested at `now`.
 * Any other account type locks nothing.
 */
export function lockedCoins(typeUrl: string, account: ProtoMessage, now: bigint): CoinMap {
  const type = neutralTypeUrl(typeUrl);
  if (!type.startsWith(VESTING)) return new Map<string, bigint>();
  const base = (account.base_vesting_account ?? {}) as ProtoMessage;
  const original = coinMap(base.original_vesting);
  const vested = vestedCoins(type.slice(VESTING.length), account, original, seconds(base.end_time), now);
  const delegated = coinMap(base.delegated_vesting);
  const locked: CoinMap = new Map();
  for (const [denom, amount] of original) {
    const vesting = amount - (vested.get(denom) ?? 0n);
    if (vesting <= 0n) continue;
    const free = vesting - min(vesting, delegated.get(denom) ?? 0n);
    if (free > 0n) locked.set(denom, free);
  }
  return locked;
}

function vestedCoins(kind: string, account: ProtoMessage, original: CoinMap, end: bigint, now: bigint): CoinMap {
  switch (kind) {
    case "ContinuousVestingAccount": {
      const start = seconds(account.start_time);
      if (now <= start) return new Map<string, bigint>();
      if (now >= end) return original;
      // Dec(x).Quo(Dec(y)), then amount × that, .RoundInt(): each rounded half to even at its step
      const fraction = roundHalfEven(((now - start) * DEC_ONE * DEC_ONE) / (end - start));
      return new Map<string, bigint>([...original].map(([denom, amount]) => [denom, roundHalfEven(amount * fraction)]));
    }
    case "DelayedVestingAccount":
      return now >= end ? original : new Map<string, bigint>();
    case "PeriodicVestingAccount": {
      let time = seconds(account.start_time);
      const vested: CoinMap = new Map();
      if (now < time) return vested;
      for (const period of (account.vesting_periods ?? []) as ProtoMessage[]) {
        time += seconds(period.length);
        if (now < time) break;
        for (const [denom, amount] of coinMap(period.amount)) vested.set(denom, (vested.get(denom) ?? 0n) + amount);
      }
      return vested;
    }
    default:
      return new Map<string, bigint>(); // PermanentLockedAccount: never vests
  }
}

function roundHalfEven(scaled: bigint): bigint {
  const quotient = scaled / DEC_ONE;
  const remainder = scaled % DEC_ONE;
  if (remainder * 2n < DEC_ONE) return quotient;
  if (remainder * 2n > DEC_ONE) return quotient + 1n;
  return quotient % 2n === 0n ? quotient : quotient + 1n;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
