/**
 * What a command prints as its product (the route list, a dev call's result, init's mnemonic),
 * on stdout as plain lines for a reader or a pipe. Diagnostics and progress go through the
 * process logger instead (src/telemetry/processLogger.ts).
 */
export function printProduct(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** A one-shot command's refusal, on stderr (its stdout stays the product alone). */
export function printCommandError(message: string): void {
  process.stderr.write(`chain-rest: ${message}\n`);
}
