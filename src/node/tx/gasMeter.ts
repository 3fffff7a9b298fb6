/** The real system's store gas costs (store/types/gas.go, KVGasConfig). */
export const KV_GAS = {
  hasCost: 1000,
  deleteCost: 1000,
  readCostFlat: 1000,
  readCostPerByte: 3,
  writeCostFlat: 2000,
  writeCostPerByte: 30,
  iterNextCostFlat: 30,
} as const;

export class OutOfGasError extends Error {
  constructor(
    readonly descriptor: string,
    readonly limit: number,
    readonly used: number,
  ) {
    super(`out of gas in location: ${descriptor}; gasWanted: ${limit}, gasUsed: ${used}`);
  }
}

/** Counts gas; past its limit it throws OutOfGasError. Without a limit it only counts (simulation, genesis). */
export class GasMeter {
  private used = 0;

  constructor(readonly limit?: number) {}

  get consumed(): number {
    return this.used;
  }

  consume(amount: number, descriptor: string): void {
    this.used += amount;
    if (this.limit !== undefined && this.used > this.limit) throw new OutOfGasError(descriptor, this.limit, this.used);
  }
}
