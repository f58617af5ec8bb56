import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { Clock } from '../../common/index.js';
import type { IdempotencyKey } from './entities/idempotency-key.entity.js';
import type { CompletedResponse, IdempotencyKeysRepository, PendingMark } from './idempotency-keys.repository.js';
import {
  IDEMPOTENCY_TTL,
  IdempotencyStore,
  RESERVE_ATTEMPTS,
  type HeldKey,
  type IdempotencyLookup,
  type IdempotencyScope,
  type IdempotencyTtl,
  type Reservation,
  type StoredResponse,
} from './idempotency.store.js';

/**
 * Idempotency keys in the `idempotency_keys` table, shared by every replica on one database.
 * The unique (client_id, key_hash) constraint makes "insert if absent" atomic; an expired row is
 * replaced under a condition on the token that wrote it, so two requests cannot both take it
 * over. Time comes from the service clock.
 *
 * The table is also where every completed creation is recorded, in the transaction that creates
 * (`IdempotentCreation`), whichever store keeps the in-flight marks.
 */
export class DatabaseIdempotencyStore extends IdempotencyStore {
  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly clock: Clock,
    private readonly ttl: IdempotencyTtl = IDEMPOTENCY_TTL,
  ) {
    super();
  }

  async reserve(scope: IdempotencyScope, fingerprint: string): Promise<IdempotencyLookup> {
    for (let attempt = 0; attempt < RESERVE_ATTEMPTS; attempt++) {
      const mark = this.pendingMark(fingerprint, randomUUID());
      const row = await this.claim(this.keys, scope, mark);
      if (row?.token === mark.token) return { state: 'reserved', reservation: this.reservation(scope, mark.token) };
      if (row) return lookupOf(row);
      // Lost a race with a release or another takeover: look again.
    }
    return { state: 'pending', fingerprint };
  }

  /** A pending mark of reservation `token`, live for the pending lifetime from now. */
  private pendingMark(fingerprint: string, token: string): PendingMark {
    return { fingerprint, token, expiresAt: new Date(this.clock.now().getTime() + this.ttl.pendingMs) };
  }

  /**
   * Takes the key for `mark` unless a live row holds it (inserting it, or replacing an expired
   * row); returns the row that holds the key now, `null` if it vanished in between.
   */
  private async claim(keys: IdempotencyKeysRepository, scope: IdempotencyScope, mark: PendingMark): Promise<IdempotencyKey | null> {
    const now = this.clock.now().getTime();
    await keys.insertIfAbsent(scope, mark);
    const row = await keys.find(scope);
    if (!row || row.token === mark.token || row.expiresAt.getTime() > now) return row;
    await keys.replace(scope, row.token, mark);
    return keys.find(scope);
  }

  /** Claims the key for reservation `token` inside the transaction of `manager` (see `claim`). */
  claimWithin(manager: EntityManager, scope: IdempotencyScope, fingerprint: string, token: string): Promise<IdempotencyKey | null> {
    return this.claim(this.keys.within(manager), scope, this.pendingMark(fingerprint, token));
  }

  /** Inside the transaction of `manager`: the response in place of reservation `token`'s pending mark, or, without one, no row. */
  async settleWithin(manager: EntityManager, scope: IdempotencyScope, token: string, response?: StoredResponse): Promise<void> {
    const keys = this.keys.within(manager);
    await (response ? keys.complete(scope, token, completedColumns(response, this.clock, this.ttl)) : keys.release(scope, token));
  }

  get dataSource(): DataSource {
    return this.keys.dataSource;
  }

  private reservation(scope: IdempotencyScope, token: string): Reservation {
    return {
      token,
      // Without Redis the row is completed in the creation's own transaction already; this only
      // records a response whose creation wrote nothing.
      complete: (response) => this.keys.complete(scope, token, completedColumns(response, this.clock, this.ttl)),
      release: () => this.keys.release(scope, token),
    };
  }
}

/** The stored form of a response, live for the completed lifetime from now. */
function completedColumns({ status, body, location }: StoredResponse, clock: Clock, ttl: IdempotencyTtl): CompletedResponse {
  return {
    status,
    body: JSON.stringify(body) ?? 'null',
    location: location ?? null,
    expiresAt: new Date(clock.now().getTime() + ttl.completedMs),
  };
}

/** What a live row says about its key: still pending, or the response to replay. */
export function lookupOf(row: IdempotencyKey): HeldKey {
  if (row.state === 'pending') return { state: 'pending', fingerprint: row.fingerprint };
  return {
    state: 'completed',
    fingerprint: row.fingerprint,
    response: {
      status: row.responseStatus ?? 201,
      body: JSON.parse(row.responseBody ?? 'null') as unknown,
      ...(row.responseLocation !== null && { location: row.responseLocation }),
    },
  };
}
