/** Whose key it is: the caller's client and the SHA-256 of its Idempotency-Key. */
export interface IdempotencyScope {
  clientId: number;
  keyHash: string;
}

/** The first response, as sent: replayed to a retry. */
export interface StoredResponse {
  status: number;
  body: unknown;
  location?: string;
}

/** The one request that may run under a key; it ends with `complete` or `release`. */
export interface Reservation {
  /** Names this reservation; the row recorded with the creation carries it. */
  readonly token: string;
  /** Replaces the pending mark with the response, kept for the completed lifetime. */
  complete(response: StoredResponse): Promise<void>;
  /** Drops the pending mark, so the key may be used again; never a later reservation's mark. */
  release(): Promise<void>;
}

/** A key some request holds: still running, or done with a response to replay. */
export type HeldKey = { state: 'pending'; fingerprint: string } | { state: 'completed'; fingerprint: string; response: StoredResponse };

export type IdempotencyLookup = { state: 'reserved'; reservation: Reservation } | HeldKey;

export interface IdempotencyTtl {
  /** How long a pending mark holds the key: a replica that died mid-request blocks it no longer. */
  pendingMs: number;
  /** How long a completed response is replayed. */
  completedMs: number;
}

export const IDEMPOTENCY_TTL: IdempotencyTtl = { pendingMs: 60_000, completedMs: 24 * 60 * 60_000 };

/**
 * Where idempotency keys live, shared by every replica (Redis, or the database). Expired
 * records count as absent.
 */
export abstract class IdempotencyStore {
  /**
   * Atomically reserves the key with a pending mark when it has no live record; otherwise
   * returns that record (pending or completed) with the fingerprint of its body.
   */
  abstract reserve(scope: IdempotencyScope, fingerprint: string): Promise<IdempotencyLookup>;

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** How often a store retries a reservation that raced with another request before answering "pending". */
export const RESERVE_ATTEMPTS = 3;
