import fs from "node:fs";
import { glibc, type Glibc } from "./glibc.js";

/**
 * A small file that the processes of one server share (the latest height, the stamp of the
 * workers' state copy), read by a REST worker at every request. Where the C library is glibc,
 * the file is mapped (mmap, MAP_SHARED, through koffi: glibc.ts): a read
 * is then a load from the very page the writer's pwrite changes, about 20 ns, where a pread
 * is a system call, about 1.4 µs on this machine. Elsewhere (no libc.so.6) each read is a pread.
 */
export interface SharedFileReader {
  /** The file's first bytes as they are now, or undefined when fewer could be read (the same Buffer each time). */
  read(): Buffer | undefined;
  close(): void;
  /** Whether reads are loads from a mapping (else preads). */
  readonly mapped: boolean;
}

const PROT_READ = 1;
const MAP_SHARED = 1;
const MAP_FAILED = 2n ** 64n - 1n; // (void *) -1

interface Mapping {
  koffi: Glibc["koffi"];
  mmap: (address: null, length: number, protection: number, flags: number, fd: number, offset: number) => unknown;
  munmap: (address: unknown, length: number) => number;
}
let mapping: Mapping | null | undefined;

/** glibc's mmap and munmap, looked up at the first call; null where there is no glibc. */
function mappingFunctions(): Mapping | null {
  if (mapping !== undefined) return mapping;
  const libc = glibc();
  mapping = libc && {
    koffi: libc.koffi,
    mmap: libc.library.func("void *mmap(void *address, size_t length, int protection, int flags, int fd, long offset)") as Mapping["mmap"],
    munmap: libc.library.func("int munmap(void *address, size_t length)") as Mapping["munmap"],
  };
  return mapping;
}

/** A reader of the first `length` bytes of the open file `fd` (which must stay that long: it is never truncated). */
export function sharedFileReader(fd: number, length: number): SharedFileReader {
  return mapped(fd, length) ?? readByPread(fd, length);
}

function readByPread(fd: number, length: number): SharedFileReader {
  const buffer = Buffer.alloc(length);
  return { read: () => (fs.readSync(fd, buffer, 0, length, 0) === length ? buffer : undefined), close: () => undefined, mapped: false };
}

function mapped(fd: number, length: number): SharedFileReader | undefined {
  const functions = mappingFunctions();
  // a page past the file's end would fault (SIGBUS) when read: only a file that is long enough now
  if (!functions || fs.fstatSync(fd).size < length) return undefined;
  const address = functions.mmap(null, length, PROT_READ, MAP_SHARED, fd, 0);
  if (BigInt(functions.koffi.address(address)) === MAP_FAILED) return undefined;
  let buffer: Buffer | undefined = Buffer.from(functions.koffi.view(address, length));
  return {
    read: () => buffer,
    close: () => {
      if (!buffer) return;
      buffer = undefined; // never read again: the pages are gone
      functions.munmap(address, length);
    },
    mapped: true,
  };
}
