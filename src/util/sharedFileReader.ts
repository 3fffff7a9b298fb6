import fs from "node:fs";

/**
 * A small file that the processes of one server share (the latest height, the stamp of the
 * workers' state copy), read by a REST worker at every request. Each read is one pread of the
 * file's first bytes into a buffer kept for the purpose: the writer's pwrite is visible to the
 * next pread, and the file is too small for anything cleverer to be worth carrying.
 */
export interface SharedFileReader {
  /** The file's first bytes as they are now, or undefined when fewer could be read (the same Buffer each time). */
  read(): Buffer | undefined;
  close(): void;
}

/** A reader of the first `length` bytes of the open file `fd` (the caller keeps the file open while it reads). */
export function sharedFileReader(fd: number, length: number): SharedFileReader {
  const buffer = Buffer.alloc(length);
  return { read: () => (fs.readSync(fd, buffer, 0, length, 0) === length ? buffer : undefined), close: () => undefined };
}
