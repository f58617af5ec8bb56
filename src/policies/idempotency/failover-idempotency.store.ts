import { Logger } from '@nestjs/common';
import { RedisCircuit, type RedisClient } from '../../platform/redis/index.js';
import type { DatabaseIdempotencyStore } from './database-idempotency.store.js';
import { IdempotencyStore, type IdempotencyLookup, type IdempotencyScope, type Reservation } from './idempotency.store.js';
import type { RedisIdempotencyStore } from './redis-idempotency.store.js';

/**
 * Redis first; while Redis cannot answer (no offline queue, bounded command time), the
 * database, so a request keeps its protection and never fails because Redis is out. A probe
 * brings the store back to Redis when it answers again. Each transition is logged once.
 *
 * A reservation is completed or released in the store that made it. If Redis fails between the
 * two, the response is still sent; its pending mark expires on its own.
 */
export class FailoverIdempotencyStore extends IdempotencyStore {
  private readonly circuit: RedisCircuit;

  constructor(
    private readonly primary: RedisIdempotencyStore,
    private readonly fallback: DatabaseIdempotencyStore,
    redis: RedisClient,
  ) {
    super();
    this.circuit = new RedisCircuit(redis, new Logger('Idempotency'), {
      down: (reason) => `Redis cannot be reached for idempotency keys (${reason}); keeping them in the database until it is back`,
      up: 'Redis answers again; idempotency keys are kept in Redis',
    });
  }

  reserve(scope: IdempotencyScope, fingerprint: string): Promise<IdempotencyLookup> {
    const key = this.primary.keyOf(scope);
    return this.circuit.run(
      key,
      async () => {
        const lookup = await this.primary.reserve(scope, fingerprint);
        return lookup.state === 'reserved' ? { state: 'reserved', reservation: this.guarded(key, lookup.reservation) } : lookup;
      },
      () => this.fallback.reserve(scope, fingerprint),
    );
  }

  override close(): Promise<void> {
    this.circuit.close();
    return Promise.resolve();
  }

  /** A Redis reservation whose failures open the circuit instead of failing the request. */
  private guarded(key: string, reservation: Reservation): Reservation {
    return {
      ...reservation,
      complete: (response) => reservation.complete(response).catch((error: unknown) => this.circuit.trip(key, error)),
      release: () => reservation.release().catch((error: unknown) => this.circuit.trip(key, error)),
    };
  }
}
