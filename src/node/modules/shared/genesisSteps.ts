/** Entries of a genesis list checked between two yields of a module's genesisValidationSteps. */
export const GENESIS_STEP = 10_000;

/** Runs a module's genesisValidationSteps to the end at once (validateGenesis). */
export function runSteps(steps: Generator<void>): void {
  for (let step = steps.next(); !step.done; step = steps.next());
}
