/** How long the node waits before it tries again to write a block that could not be written. */
export const BLOCK_WRITE_RETRY_MS = 1_000;

/** A broadcast refused while blocks cannot be written (the disk is full, say): nothing accepted now could be committed. */
export class BlocksNotWrittenError extends Error {
  constructor(readonly reason: string) {
    super(`cannot write blocks: ${reason}`);
  }
}

/** Why a block's write failed, in words a client can act on ("no space left on device" for ENOSPC, as LevelDB reports it). */
export function blockWriteFailureReason(err: unknown): string {
  const error = err as { code?: unknown; message?: unknown } | undefined;
  const text = typeof error?.message === "string" ? error.message : String(err);
  if (error?.code === "ENOSPC" || /no space left on device/i.test(text)) return "no space left on device";
  return text;
}
