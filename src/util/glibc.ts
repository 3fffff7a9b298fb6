import { createRequire } from "node:module";

type Koffi = typeof import("koffi");

/** glibc's C library, opened through koffi (an FFI library: Node has no binding of its own). */
export interface Glibc {
  koffi: Koffi;
  library: ReturnType<Koffi["load"]>;
}

let opened: Glibc | null | undefined;

/**
 * glibc, opened at the first call (koffi takes ~15 ms to load: callers ask for it when first
 * needed, not during a start); null where there is no `libc.so.6` (musl, macOS) or no koffi.
 * Used for malloc_trim (freedMemory.ts) and mmap (sharedFileReader.ts).
 */
export function glibc(): Glibc | null {
  if (opened !== undefined) return opened;
  try {
    const koffi = createRequire(import.meta.url)("koffi") as Koffi; // external to the bundle (writeBundle.ts)
    opened = { koffi, library: koffi.load("libc.so.6") };
  } catch {
    opened = null;
  }
  return opened;
}
