/** Options every method takes. */
export interface RequestOptions {
  /** Cancels the call, its waits included; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Options of the methods that create something (POST). */
export interface CreateOptions extends RequestOptions {
  /**
   * Sent as `Idempotency-Key`, the same on every retry; by default a random UUID made for this call.
   * Pass your own to make a creation safe across your own retries (a restarted job, say).
   */
  idempotencyKey?: string;
}
