/**
 * Reads until `done` holds of the value or `boundMs` has passed, and resolves with the last value read:
 * for what the service writes off the request's path (a key's `lastUsedAt`), on a connection of its own.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, boundMs = 5_000): Promise<T> {
  const started = performance.now();
  for (;;) {
    const value = await read();
    if (done(value) || performance.now() - started > boundMs) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
