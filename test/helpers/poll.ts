/**
 * Reads until `done` holds. No deadline of its own: the test's timeout bounds
 * it, so a slow (loaded) machine makes the test slower, never red.
 */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, everyMs = 50): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
