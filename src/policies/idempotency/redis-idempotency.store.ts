import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../../platform/redis/index.js';
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

type StoredRecord =
  { state: 'pending'; fingerprint: string; token: string } | { state: 'completed'; fingerprint: string; response: StoredResponse };

/** Writes the completed record (ARGV[2], PX ARGV[3]) if the key holds this reservation's mark (ARGV[1]) or nothing. */
const COMPLETE_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if current == false or current == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0`;

/** Deletes the key if it still holds this reservation's pending mark (ARGV[1]). */
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

type WithIdempotencyCommands = RedisClient & {
  petsIdempotencyComplete(key: string, mark: string, record: string, ttlMs: number): Promise<number>;
  petsIdempotencyRelease(key: string, mark: string): Promise<number>;
};

/**
 * Idempotency keys in Redis, shared by every replica: `SET NX PX` reserves a key atomically with
 * a pending mark that expires on its own; the completed record replaces it (only that mark) with
 * the completed lifetime. Keys look like `pets:idem:{c:42}:<SHA-256 of the header>`, hash-tagged
 * by client so a client's keys share a Cluster slot. Expiry is Redis's.
 */
export class RedisIdempotencyStore extends IdempotencyStore {
  private readonly redis: WithIdempotencyCommands;

  constructor(
    redis: RedisClient,
    private readonly keyPrefix: string,
    private readonly ttl: IdempotencyTtl = IDEMPOTENCY_TTL,
  ) {
    super();
    redis.defineCommand('petsIdempotencyComplete', { numberOfKeys: 1, lua: COMPLETE_SCRIPT });
    redis.defineCommand('petsIdempotencyRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
    this.redis = redis as WithIdempotencyCommands;
  }

  /** The Redis key of a scope; the failover store keys its per-slot circuit with it. */
  keyOf({ clientId, keyHash }: IdempotencyScope): string {
    return `${this.keyPrefix}idem:{c:${clientId}}:${keyHash}`;
  }

  async reserve(scope: IdempotencyScope, fingerprint: string): Promise<IdempotencyLookup> {
    const key = this.keyOf(scope);
    for (let attempt = 0; attempt < RESERVE_ATTEMPTS; attempt++) {
      const token = randomUUID();
      const mark = JSON.stringify({ state: 'pending', fingerprint, token } satisfies StoredRecord);
      if ((await this.redis.set(key, mark, 'PX', this.ttl.pendingMs, 'NX')) === 'OK') {
        return { state: 'reserved', reservation: this.reservation(key, mark, fingerprint, token) };
      }
      const current = await this.redis.get(key);
      // null: the record expired or was released in between; try again.
      if (current !== null) return lookupOf(JSON.parse(current) as StoredRecord);
    }
    return { state: 'pending', fingerprint };
  }

  private reservation(key: string, mark: string, fingerprint: string, token: string): Reservation {
    return {
      token,
      complete: async (response) => {
        const record = JSON.stringify({ state: 'completed', fingerprint, response } satisfies StoredRecord);
        await this.redis.petsIdempotencyComplete(key, mark, record, this.ttl.completedMs);
      },
      release: async () => {
        await this.redis.petsIdempotencyRelease(key, mark);
      },
    };
  }
}

function lookupOf(record: StoredRecord): HeldKey {
  return record.state === 'pending'
    ? { state: 'pending', fingerprint: record.fingerprint }
    : { state: 'completed', fingerprint: record.fingerprint, response: record.response };
}
