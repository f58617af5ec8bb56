import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Redis } from 'ioredis';

/**
 * `@nest-lab/throttler-storage-redis` 1.2.0's script (MIT, github.com/jmcdo29/nest-lab), unchanged:
 * count the hit, start the window's TTL on its first hit, block for `blockDuration` once the count
 * passes the limit. That package declares `@nestjs/common` ^7 to ^11 only, so npm refuses it next
 * to NestJS 12 (ERESOLVE); this storage keeps its shape, one EVAL per throttler per request.
 *
 * KEYS[1] the hit counter, KEYS[2] the block flag; ARGV: throttler name, ttl ms, limit, block ms.
 * Reply: { total hits, ms until the window ends, blocked (1/0), ms until the block ends }
 */
export const THROTTLER_SCRIPT = `
local hitKey = KEYS[1]
local blockKey = KEYS[2]
local ttl = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local blockDuration = tonumber(ARGV[4])
local totalHits = redis.call('INCR', hitKey)
local timeToExpire = redis.call('PTTL', hitKey)
if timeToExpire <= 0 then
  redis.call('PEXPIRE', hitKey, ttl)
  timeToExpire = ttl
end
local isBlocked = redis.call('GET', blockKey)
local timeToBlockExpire = 0
if isBlocked then
  timeToBlockExpire = redis.call('PTTL', blockKey)
elseif totalHits > limit then
  redis.call('SET', blockKey, 1, 'PX', blockDuration)
  isBlocked = '1'
  timeToBlockExpire = blockDuration
end
if isBlocked and timeToBlockExpire <= 0 then
  redis.call('DEL', blockKey)
  redis.call('SET', hitKey, 1, 'PX', ttl)
  totalHits = 1
  timeToExpire = ttl
  isBlocked = false
end
return { totalHits, timeToExpire, isBlocked and 1 or 0, timeToBlockExpire }
`;

/** The Redis keys of a throttler's hit counter and block flag, hash-tagged as the package does. */
export function throttlerKeys(prefix: string, key: string, throttlerName: string) {
  const base = `${prefix}{${key}:${throttlerName}}`;
  return { hits: `${base}:hits`, blocked: `${base}:blocked` };
}

/** `@nestjs/throttler` storage in Redis: one EVAL of THROTTLER_SCRIPT per `increment`. */
export class RedisThrottlerStorage implements ThrottlerStorage {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string) {
    const { hits, blocked } = throttlerKeys(this.prefix, key, throttlerName);
    const reply = await this.redis.eval(THROTTLER_SCRIPT, 2, hits, blocked, throttlerName, ttl, limit, blockDuration);
    if (!isFourNumbers(reply)) throw new TypeError(`the throttler script answered ${JSON.stringify(reply)}`);
    const [totalHits, timeToExpire, isBlocked, timeToBlockExpire] = reply;
    return {
      totalHits,
      timeToExpire: Math.ceil(timeToExpire / 1000),
      isBlocked: isBlocked === 1,
      timeToBlockExpire: Math.ceil(timeToBlockExpire / 1000),
    };
  }
}

function isFourNumbers(value: unknown): value is [number, number, number, number] {
  return Array.isArray(value) && value.length === 4 && value.every((item) => typeof item === 'number');
}
