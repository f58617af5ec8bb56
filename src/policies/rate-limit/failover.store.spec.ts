import { EventEmitter } from 'node:events';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { Clock } from '../../common/index.js';
import type { RedisClient } from '../../platform/redis/index.js';
import { FailoverStore } from './failover.store.js';
import { InProcessStore } from './in-process.store.js';
import type { LimiterFacts, LimiterRequest } from './limiter.store.js';
import type { RedisStore } from './redis.store.js';

class FixedClock extends Clock {
  now(): Date {
    return new Date('2027-03-01T12:00:10Z');
  }
}

const request: LimiterRequest = {
  subjectKey: 'rl:{c:1}',
  keyId: 1,
  limits: { perMinute: 60, perDay: 1_000 },
  ban: { threshold: 30, durationMs: 900_000 },
};
const inRedis: LimiterFacts = { outcome: 'read', store: 'redis', usedMinute: 7, usedDay: 70, nowMs: 0, suspendedUntilMs: 0 };

describe('FailoverStore peek', () => {
  const primary = { consume: jest.fn<RedisStore['consume']>(), peek: jest.fn<RedisStore['peek']>() };
  const redis = Object.assign(new EventEmitter(), { status: 'ready' });
  let store: FailoverStore;

  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    redis.status = 'ready';
    const fallback = new InProcessStore(new FixedClock(), { clients: 10, addresses: 10 });
    store = new FailoverStore(primary as unknown as RedisStore, fallback, redis as unknown as RedisClient);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    jest.resetAllMocks();
    store.onApplicationShutdown();
  });

  it('peeks in Redis while it answers, counting nothing', async () => {
    primary.peek.mockResolvedValue(inRedis);
    await expect(store.peek(request)).resolves.toEqual(inRedis);
    expect(primary.peek).toHaveBeenCalledWith(request);
    expect(primary.consume).not.toHaveBeenCalled();
  });

  it('peeks at what the fallback counts while Redis cannot be reached', async () => {
    redis.status = 'reconnecting';
    await store.consume(request);
    await store.consume(request);
    await expect(store.peek(request)).resolves.toMatchObject({ outcome: 'read', usedMinute: 2, usedDay: 2 });
    expect(primary.peek).not.toHaveBeenCalled();
  });
});
