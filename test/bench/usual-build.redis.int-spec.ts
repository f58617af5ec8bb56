import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisThrottlerStorage, throttlerKeys } from '../../bench/peers/usual-build/redis-throttler.storage.js';
import { monitorCommands } from '../support/redis-monitor.js';

/**
 * The storage of the benchmark's usual build (bench/peers/usual-build), against the real Redis
 * named by REDIS_URL: the shape `@nest-lab/throttler-storage-redis` has and docs/architecture.md
 * describes. (`@nestjs/throttler` itself is CommonJS requiring the ESM-only @nestjs/common, which
 * Node 20.19 loads but Jest's module runtime does not; `npm run bench` drives its guard over HTTP.)
 */
const REDIS_URL = process.env.REDIS_URL!;
const MINUTE_MS = 60_000;
const LIMIT = 3;

describe('the usual build’s throttler storage in Redis (integration)', () => {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const prefix = `test:usual:${randomUUID()}:`;
  const storage = new RedisThrottlerStorage(redis, prefix);

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('sends one EVAL per increment, counts every hit, refused ones too, and blocks past the limit', async () => {
    const monitor = await monitorCommands(redis, (args, source) => source !== 'lua' && args.some((arg) => arg.startsWith(prefix)));
    const answers = [];
    for (let i = 0; i < LIMIT + 2; i++) answers.push(await storage.increment('caller', MINUTE_MS, LIMIT, MINUTE_MS, 'minute'));
    const sent = (await monitor.stop()).map(([name]) => name.toLowerCase());

    expect(sent).toEqual(Array<string>(LIMIT + 2).fill('eval'));
    expect(answers.map((a) => [a.totalHits, a.isBlocked])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
      [5, true],
    ]);
    expect(answers.at(-1)).toMatchObject({ timeToExpire: 60, timeToBlockExpire: 60 });
    const { hits, blocked } = throttlerKeys(prefix, 'caller', 'minute');
    expect(await redis.mget(hits, blocked)).toEqual(['5', '1']);
    expect(await redis.pttl(hits)).toBeGreaterThan(MINUTE_MS - 5_000);
  });
});
