/** The cooldown table remembers at most this many addresses; when full, the oldest credit is forgotten first. */
export const MAX_COOLDOWN_ENTRIES = 10_000;

/** When each address was last credited, so that it waits `cooldownMs` before the next credit (as @cosmjs/faucet's address counter). */
export class Cooldowns {
  private readonly lastCredit = new Map<string, number>();

  constructor(private readonly cooldownMs: number) {}

  /** True when the address may be credited now; then it is marked as credited. */
  take(address: string, now = Date.now()): boolean {
    const last = this.lastCredit.get(address);
    if (last !== undefined && last + this.cooldownMs > now) return false;
    this.lastCredit.delete(address); // re-inserted last: the Map's order is the order of credits
    if (this.lastCredit.size >= MAX_COOLDOWN_ENTRIES) this.lastCredit.delete(this.lastCredit.keys().next().value!);
    this.lastCredit.set(address, now);
    return true;
  }

  /** A credit that failed does not count. */
  release(address: string): void {
    this.lastCredit.delete(address);
  }
}
