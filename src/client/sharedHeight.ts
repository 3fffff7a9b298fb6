import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sharedFileReader, type SharedFileReader } from "../util/sharedFileReader.js";

const SLOT_BYTES = 8;

/**
 * The latest committed height the processes of one server know, in a small
 * file on tmpfs: one slot per writer (so writers never overwrite each
 * other), read as the highest. REST workers read it just before they reuse
 * an answer: a height message can still sit unread in a worker's channel (or
 * its own NewBlock event be on its way) when a client that already saw the
 * commit through another process asks it; the file cannot lag the process
 * that wrote it. Read with one pread (sharedFileReader.ts).
 */
export class SharedHeight {
  private readonly fd: number;
  /** Made at the first read (a process that only writes needs no read buffer). */
  private reader: SharedFileReader | undefined;
  private readonly slot = Buffer.alloc(SLOT_BYTES);

  constructor(
    readonly file: string,
    readonly slots: number,
  ) {
    this.fd = fs.openSync(file, "r+");
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
    const slots = (this.reader ??= sharedFileReader(this.fd, this.slots * SLOT_BYTES)).read();
    let highest = 0;
    for (let offset = 0; slots && offset < slots.length; offset += SLOT_BYTES) highest = Math.max(highest, slots.readDoubleLE(offset));
    return highest;
  }

  remove(): void {
    this.reader?.close();
    fs.closeSync(this.fd);
    fs.rmSync(this.file, { force: true });
  }
}
