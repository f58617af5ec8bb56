import { randomUUID } from 'node:crypto';
import { IdempotencyStore, type IdempotencyLookup } from '../../src/policies/idempotency/idempotency.store.js';

/**
 * An in-flight store that remembers nothing: every request gets a reservation, as when the Redis
 * node that held the key died or was replaced by an empty one. Only the database record stands
 * between a retry and a second animal. Use it as an override of `IdempotencyStore`.
 */
export const forgetfulIdempotencyStore = {
  provide: IdempotencyStore,
  useValue: {
    reserve: (): Promise<IdempotencyLookup> =>
      Promise.resolve({
        state: 'reserved',
        reservation: { token: randomUUID(), complete: () => Promise.resolve(), release: () => Promise.resolve() },
      }),
    close: () => Promise.resolve(),
  },
};
