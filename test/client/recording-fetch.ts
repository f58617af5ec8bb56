export interface Exchange {
  method: string;
  path: string;
  /** `performance.now()` when the request left, and when its answer's headers came. */
  sentAt: number;
  receivedAt?: number;
  /** Undefined when no answer came (`error` says why). */
  status?: number;
  code?: string;
  retryAfterSeconds?: number;
  /** The call's `Idempotency-Key`: a retry of the call sends the same. */
  idempotencyKey?: string;
  error?: string;
}

/**
 * The platform's `fetch`, given to a PetsClient as its `fetch` option, that records every request
 * the library sends (retries included): when it left, what came back and when.
 */
export class RecordingFetch {
  readonly exchanges: Exchange[] = [];

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const exchange: Exchange = {
      method: init?.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      sentAt: performance.now(),
      idempotencyKey: new Headers(init?.headers).get('idempotency-key') ?? undefined,
    };
    this.exchanges.push(exchange);
    try {
      const response = await fetch(input, init);
      exchange.receivedAt = performance.now();
      exchange.status = response.status;
      const retryAfter = response.headers.get('retry-after');
      if (retryAfter !== null) exchange.retryAfterSeconds = Number(retryAfter);
      if (!response.ok)
        exchange.code = (
          (await response
            .clone()
            .json()
            .catch(() => undefined)) as { code?: string } | undefined
        )?.code;
      return response;
    } catch (error) {
      exchange.error = String(error);
      throw error;
    }
  };

  /** The answers with this status. */
  withStatus(status: number): Exchange[] {
    return this.exchanges.filter((exchange) => exchange.status === status);
  }
}
