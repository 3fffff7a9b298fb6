import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const SLOT_BYTES = 8;

/**
 * The latest committed height the processes of one server know, in a small
 * file on tmpfs: one slot per writer (so writers never overwrite each
 * other), read as the highest. REST workers read it just before they reuse
 * an answer: a height message can still sit unread in a worker's channel (or
 * its own NewBlock event be on its way) when a client that already saw the
 * commit through another process asks it; the file cannot lag the process
 * that wrote it. One pread, about 1.3 µs on this machine.
 */
export class SharedHeight {
  private readonly fd: number;
  private readonly buffer: Buffer;
  private readonly slot = Buffer.alloc(SLOT_BYTES);

  constructor(
    readonly file: string,
    readonly slots: number,
  ) {
    this.fd = fs.openSync(file, "r+");
    this.buffer = Buffer.alloc(slots * SLOT_BYTES);
  }

  /** A new file of zeros in /dev/shm (or the temporary folder where there is none). */
  static create(slots: number): SharedHeight {
    const dir = fs.existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir();
    const file = path.join(dir, `chain-rest-height-${process.pid}`);
    fs.writeFileSync(file, Buffer.alloc(slots * SLOT_BYTES), { mode: 0o600 });
    return new SharedHeight(file, slots);
  }

  write(slot: number, height: number): void {
    this.slot.writeDoubleLE(height, 0);
    fs.writeSync(this.fd, this.slot, 0, SLOT_BYTES, slot * SLOT_BYTES);
  }

  /** The highest height written (0 before any). */
  read(): number {
    const bytes = fs.readSync(this.fd, this.buffer, 0, this.buffer.length, 0);
    let highest = 0;
    for (let offset = 0; offset + SLOT_BYTES <= bytes; offset += SLOT_BYTES) highest = Math.max(highest, this.buffer.readDoubleLE(offset));
    return highest;
  }

  remove(): void {
    fs.closeSync(this.fd);
    fs.rmSync(this.file, { force: true });
  }
}
