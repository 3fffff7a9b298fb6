import type { ExecContext, QueryContext } from "../../modules/nodeModule.js";

/** What an invariant reads: the state, and (as ctx.CacheContext()) writable modules over a throwaway copy of it. */
export interface InvariantContext extends QueryContext {
  scratch(): (module: string) => ExecContext;
}

/** One registered invariant of the crisis module: its module, route and check (sdk.Invariant). */
export interface Invariant {
  module: string;
  route: string;
  /** The message (sdk.FormatInvariant's text) and whether the invariant is broken. */
  check(ctx: InvariantContext): Promise<{ message: string; broken: boolean }>;
}

/** sdk.FormatInvariant */
export const formatInvariant = (module: string, name: string, message: string) => `${module}: ${name} invariant\n${message}\n`;

/** A sum of amounts by denom, sorted by denom, zero totals dropped (sdk.Coins.Add). */
export function sumByDenom<T extends { denom: string; amount: bigint }>(coins: T[]): Array<{ denom: string; amount: bigint }> {
  const sums = new Map<string, bigint>();
  for (const coin of coins) sums.set(coin.denom, (sums.get(coin.denom) ?? 0n) + coin.amount);
  return [...sums]
    .filter(([, amount]) => amount !== 0n)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([denom, amount]) => ({ denom, amount }));
}

export const sameCoins = (a: Array<{ denom: string; amount: bigint }>, b: Array<{ denom: string; amount: bigint }>) =>
  a.length === b.length && a.every((coin, i) => coin.denom === b[i]!.denom && coin.amount === b[i]!.amount);

/** The crisis keeper's refusal when an invariant is broken (AssertInvariants' panic). */
export class InvariantBrokenError extends Error {}

/** crisis Keeper.AssertInvariants: every invariant in turn; the first broken one stops with its message. */
export async function assertInvariants(invariants: Invariant[], ctx: InvariantContext): Promise<void> {
  for (const invariant of invariants) {
    const { message, broken } = await invariant.check(ctx);
    if (broken) {
      throw new InvariantBrokenError(
        `invariant broken: ${message}\n\tCRITICAL please submit the following transaction:\n\t\t tx crisis invariant-broken ${invariant.module} ${invariant.route}`,
      );
    }
  }
}
