import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The node's latest committed height in an 8-byte file on tmpfs that the node's
 * process writes at each commit, before anything else hears of the commit, and
 * that REST workers read when they are about to reuse an answer. A worker's
 * height message can still sit unread in its channel when a client that already
 * saw the commit (through another worker, or the node's RPC) asks it: the file
 * cannot lag. One pread, about 1.3 µs on this machine.
 */
export class SharedHeightWriter {
  private readonly fd: number;
  private readonly buffer = Buffer.alloc(8);

  private constructor(readonly file: string) {
    this.fd = fs.openSync(file, "w+", 0o600);
  }

  /** A new file in /dev/shm (or the temporary folder where there is none). */
  static create(): SharedHeightWriter {
    const dir = fs.existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir();
    return new SharedHeightWriter(path.join(dir, `chain-rest-height-${process.pid}`));
  }

  write(height: number): void {
    this.buffer.writeDoubleLE(height, 0);
    fs.writeSync(this.fd, this.buffer, 0, 8, 0);
  }

  remove(): void {
    fs.closeSync(this.fd);
    fs.rmSync(this.file, { force: true });
  }
}

/** Reads the height a SharedHeightWriter keeps (0 before its first write). */
export class SharedHeightReader {
  private readonly fd: number;
  private readonly buffer = Buffer.alloc(8);

  constructor(file: string) {
    this.fd = fs.openSync(file, "r");
  }

  read(): number {
    return fs.readSync(this.fd, this.buffer, 0, 8, 0) === 8 ? this.buffer.readDoubleLE(0) : 0;
  }
}
