/** Where import progress goes: one line at a time (start prints them; tests collect them). */
export type ProgressLog = (line: string) => void;

interface Phase {
  name: string;
  unit: string;
  /** The expected count, for the ETA; undefined when unknown. */
  total: number | undefined;
  done: number;
  started: number;
}

const count = (n: number) => Math.round(n).toLocaleString("en");

/**
 * Progress lines of a genesis import: the phase, how many of its units are done, the
 * rate and the ETA, printed at least every `everyMs` while the import advances (each
 * advance checks the clock) and, while it waits on LevelDB, by a timer. A phase's end
 * prints its count and time. A line is due once half of `everyMs` has passed: a step
 * that ends later than that still leaves its line within `everyMs`.
 */
export class ImportProgress {
  private phase: Phase | undefined;
  private last = performance.now();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly log: ProgressLog,
    private readonly everyMs = 2000,
  ) {
    this.timer = setInterval(() => this.lineIfDue(), Math.max(everyMs / 4, 1)).unref();
  }

  begin(name: string, unit: string, total?: number): void {
    this.phase = { name, unit, total, done: 0, started: performance.now() };
    this.print(`[genesis] ${name}${total === undefined ? "" : ` (${count(total)} ${unit})`}...`);
  }

  advance(n = 1): void {
    if (!this.phase) return;
    this.phase.done += n;
    this.lineIfDue();
  }

  end(): void {
    const phase = this.phase;
    if (!phase) return;
    this.phase = undefined;
    const seconds = (performance.now() - phase.started) / 1000;
    this.print(`[genesis] ${phase.name}: ${count(phase.done)} ${phase.unit} in ${seconds.toFixed(1)} s`);
  }

  close(): void {
    clearInterval(this.timer);
  }

  private lineIfDue(): void {
    if (!this.phase || performance.now() - this.last < this.everyMs / 2) return;
    const { name, unit, total, done, started } = this.phase;
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    if (done === 0) return this.print(`[genesis] ${name}: ${seconds.toFixed(0)} s so far`); // one long step (LevelDB's write)
    const of = total === undefined ? "" : ` of ${count(total)}`;
    const eta = total !== undefined && rate > 0 ? `, ETA ${Math.max(0, (total - done) / rate).toFixed(0)} s` : "";
    this.print(`[genesis] ${name}: ${count(done)}${of} ${unit} (${count(rate)}/s${eta}; ${seconds.toFixed(0)} s so far)`);
  }

  private print(line: string): void {
    this.last = performance.now();
    this.log(line);
  }
}
