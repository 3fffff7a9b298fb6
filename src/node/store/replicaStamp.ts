import fs from "node:fs";
import { sharedFileReader, type SharedFileReader } from "../../util/sharedFileReader.js";

const BYTES = 16;
const ALL_ONES = (1n << 64n) - 1n;

/**
 * Which write of the workers' LMDB copy is the latest (latestReplica.ts): a
 * sequence number the node bumps with each write of the copy, stored in the
 * copy too and, once that write is committed, in this 16-byte file. A worker
 * reads it with one pread (sharedFileReader.ts), far cheaper than an LMDB
 * read transaction: while it is the sequence of the reads a worker keeps, they
 * are the latest state and no transaction is needed. Written as the sequence
 * and its complement, two aligned 8-byte words: a read that meets a write half
 * done sees words that do not match, and is taken for unknown.
 */
export class ReplicaStamp {
  private readonly buffer = Buffer.alloc(BYTES);
  /** Made at the first read: the node only writes. */
  private reader: SharedFileReader | undefined;

  private constructor(private readonly fd: number) {}

  /** The stamp of the copy at `lmdbPath` (a file beside it). */
  static fileOf(lmdbPath: string): string {
    return `${lmdbPath}-stamp`;
  }

  /** The node's side: a new stamp file (no sequence yet). */
  static create(lmdbPath: string): ReplicaStamp {
    const file = ReplicaStamp.fileOf(lmdbPath);
    fs.writeFileSync(file, Buffer.alloc(BYTES), { mode: 0o600 });
    return new ReplicaStamp(fs.openSync(file, "r+"));
  }

  /** A worker's side; undefined when there is no stamp (then nothing is kept: every query reads the copy). */
  static open(lmdbPath: string): ReplicaStamp | undefined {
    try {
      return new ReplicaStamp(fs.openSync(ReplicaStamp.fileOf(lmdbPath), "r"));
    } catch {
      return undefined;
    }
  }

  write(sequence: number): void {
    this.buffer.writeBigUint64LE(BigInt(sequence), 0);
    this.buffer.writeBigUint64LE(BigInt(sequence) ^ ALL_ONES, 8);
    fs.writeSync(this.fd, this.buffer, 0, BYTES, 0);
  }

  /** The latest sequence; undefined while none was written or when a write was met half done. */
  read(): number | undefined {
    const words = (this.reader ??= sharedFileReader(this.fd, BYTES)).read();
    if (!words) return undefined;
    const sequence = words.readBigUint64LE(0);
    if ((sequence ^ ALL_ONES) !== words.readBigUint64LE(8) || sequence === 0n) return undefined;
    return Number(sequence);
  }

  close(): void {
    this.reader?.close();
    fs.closeSync(this.fd);
  }
}
