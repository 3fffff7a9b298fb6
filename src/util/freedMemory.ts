import { glibc } from "./glibc.js";

/**
 * Gives the memory glibc's malloc keeps after frees back to the system, now and then
 * (`malloc_trim(0)`, called through koffi, an FFI library: Node has no binding of its own).
 *
 * Why: much of a server's native memory (ArrayBuffers' contents, crypto and zlib objects, LevelDB's
 * reads in the thread pool) is freed only when V8 collects the JS object that owns it, in bursts.
 * glibc keeps what is freed: after a large free it raises its trim threshold, each thread's arena
 * keeps its own free memory, and a block still used near the top of the heap pins everything below
 * it. So RSS followed the most memory ever in use, not the memory in use: after a burst of 6,000
 * sends, 61 MB of main heap kept with 7 MB of it in use after a full collection (README "Memory").
 * malloc_trim(0) hands the free pages of every arena back (madvise); they stay mapped, so memory
 * used again costs one page fault a page.
 *
 * Only where the C library is glibc (`libc.so.6`); elsewhere (musl, macOS) nothing is done.
 */
export const FREED_MEMORY_INTERVAL_MS = 10_000;

type Trim = (pad: number) => number;
let trim: Trim | null | undefined;

/** glibc's malloc_trim, looked up at the first call (so koffi loads then, not during a start); null where there is no glibc. */
function mallocTrim(): Trim | null {
  if (trim === undefined) trim = (glibc()?.library.func("int malloc_trim(size_t pad)") as Trim | undefined) ?? null;
  return trim;
}

/** One trim now: true when glibc gave memory back, false when it had none to give, undefined where there is no glibc. */
export async function returnFreedMemory(): Promise<boolean | undefined> {
  const call = mallocTrim();
  return call ? call(0) === 1 : undefined;
}

/** A trim every `intervalMs`, the first one interval after the call (the timer does not keep the process alive). */
export function returnFreedMemoryEvery(intervalMs = FREED_MEMORY_INTERVAL_MS): { stop(): void } {
  const timer = setInterval(() => {
    // stopped where there is no glibc, or if a trim ever fails (a timer's rejection must not end the server)
    returnFreedMemory().then(
      (trimmed) => trimmed === undefined && clearInterval(timer),
      () => clearInterval(timer),
    );
  }, intervalMs).unref();
  return { stop: () => clearInterval(timer) };
}
