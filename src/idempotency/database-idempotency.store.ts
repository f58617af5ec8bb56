import { randomUUID } from 'node:crypto';
import type { Clock } from '../common/clock/clock.js';
import type { IdempotencyKey } from './entities/idempotency-key.entity.js';
import type { IdempotencyKeysRepository } from './idempotency-keys.repository.js';
import {
  IDEMPOTENCY_TTL,
  IdempotencyStore,
  RESERVE_ATTEMPTS,
  type IdempotencyLookup,
  type IdempotencyScope,
  type IdempotencyTtl,
  type Reservation,
} from './idempotency.store.js';

/**
 * Idempotency keys in the `idempotency_keys` table, shared by every replica on one database.
 * The unique (client_id, key_hash) constraint makes "insert if absent" atomic; an expired row is
 * replaced under a condition on the token that wrote it, so two requests cannot both take it
 * over. Time comes from the service clock.
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
      const now = this.clock.now();
      const mark = { fingerprint, token: randomUUID(), expiresAt: new Date(now.getTime() + this.ttl.pendingMs) };
      await this.keys.insertIfAbsent(scope, mark);
      let row = await this.keys.find(scope);
      if (row && row.token !== mark.token && row.expiresAt.getTime() <= now.getTime()) {
        await this.keys.replace(scope, row.token, mark);
        row = await this.keys.find(scope);
      }
      if (row?.token === mark.token) return { state: 'reserved', reservation: this.reservation(scope, mark.token) };
      if (row && row.expiresAt.getTime() > now.getTime()) return this.lookupOf(row);
      // Lost a race with a release or another takeover: look again.
    }
    return { state: 'pending', fingerprint };
  }

  private lookupOf(row: IdempotencyKey): IdempotencyLookup {
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

  private reservation(scope: IdempotencyScope, token: string): Reservation {
    return {
      complete: ({ status, body, location }) =>
        this.keys.complete(scope, token, {
          status,
          body: JSON.stringify(body) ?? 'null',
          location: location ?? null,
          expiresAt: new Date(this.clock.now().getTime() + this.ttl.completedMs),
        }),
      release: () => this.keys.release(scope, token),
    };
  }
}
