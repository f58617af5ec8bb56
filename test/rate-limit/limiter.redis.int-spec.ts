import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { ClientsService } from '../../src/modules/plans/clients.service.js';
import { RedisStore } from '../../src/policies/rate-limit/redis.store.js';
import { REDIS_CLIENT } from '../../src/platform/redis/redis.module.js';
import { describeLimiterStore } from '../support/limiter-store.behaviour.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { monitorCommands } from '../support/redis-monitor.js';
import { redisReplicas } from '../support/redis-replicas.js';

/**
 * Runs against the real Redis named by REDIS_URL (CI sets it). An unreachable Redis fails
 * these tests; they are never skipped once selected.
 */
const REDIS_URL = process.env.REDIS_URL!;

describeLimiterStore('Redis store', (clock) => {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  return Promise.resolve({ store: new RedisStore(redis, clock), name: 'redis', close: async () => void (await redis.quit()) });
});

describe('Redis-backed limiter in the application (integration)', () => {
  const replicas = redisReplicas();
  const { env, start } = replicas;
  const get = (url: string, key: string) => fetch(`${url}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } });
  /** Waits until at least `seconds` remain in the current Redis minute, so a burst stays in one window. */
  const awayFromMinuteEnd = async (seconds: number) => {
    const [now] = await replicas.admin.time();
    const left = 60 - (Number(now) % 60);
    if (left < seconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
  };

  it('decides each request with exactly one Redis round trip (one EVALSHA)', async () => {
    const app = await start();
    const key = await app.newKey('pro');
    const url = (await app.app.listen(0, '127.0.0.1'), await app.app.getUrl());
    expect((await get(url, key)).status).toBe(200);

    // MONITOR sees every client of the server (other suites run in parallel), so only the service's
    // own connection is counted.
    const { stream } = app.app.get<Redis>(REDIS_CLIENT);
    const service = `${stream.localAddress}:${stream.localPort}`;
    const monitor = await monitorCommands(
      replicas.admin,
      (args, source) => source === service && !['info', 'ping'].includes(args[0].toLowerCase()),
    );
    for (let i = 0; i < 20; i++) expect((await get(url, key)).status).toBe(200);
    const commands = (await monitor.stop()).map(([name]) => name.toLowerCase());
    console.log(
      `Redis commands sent by the service for 20 requests (MONITOR, script-internal lines excluded): ${commands.length} (${[...new Set(commands)].join(', ')})`,
    );
    expect(commands).toEqual(Array(20).fill('evalsha'));
  });

  it('lets two application instances on one Redis admit exactly the quota between them under concurrent load', async () => {
    const [a, b] = [await start(), await start()];
    const urls = [(await a.app.listen(0, '127.0.0.1'), await a.app.getUrl()), (await b.app.listen(0, '127.0.0.1'), await b.app.getUrl())];

    const dayKey = await a.newKey('enterprise', { perMinute: 1_000_000, perDay: 50 });
    const byDay = await Promise.all(Array.from({ length: 200 }, (_, i) => get(urls[i % 2], dayKey)));
    const dayAdmitted = byDay.filter((r) => r.status === 200);
    console.log(
      `day quota 50, 200 concurrent requests over 2 instances: ${dayAdmitted.length} admitted, ${200 - dayAdmitted.length} refused`,
    );
    expect(dayAdmitted).toHaveLength(50);
    expect(byDay.filter((r) => r.status === 429)).toHaveLength(150);

    await awayFromMinuteEnd(15);
    const minuteKey = await a.newKey('free');
    const byMinute = await Promise.all(Array.from({ length: 100 }, (_, i) => get(urls[i % 2], minuteKey)));
    const codes = await Promise.all(
      byMinute.map(async (r) => (r.status === 200 ? 'admitted' : ((await r.json()) as { code: string }).code)),
    );
    const tally = (code: string) => codes.filter((c) => c === code).length;
    console.log(
      `free plan, 100 concurrent requests over 2 instances: ${tally('admitted')} admitted, ${tally('rate_limit_exceeded')} rate_limit_exceeded, ${tally('api_key_suspended')} api_key_suspended`,
    );
    expect([tally('admitted'), tally('rate_limit_exceeded'), tally('api_key_suspended')]).toEqual([60, 30, 10]);
  });

  it('falls back to the in-process limiter while Redis is unreachable, then returns to Redis without replaying counts', async () => {
    const target = new URL(REDIS_URL);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 6379));
    await proxy.start();
    const app = await start({ REDIS_URL: `redis://127.0.0.1:${proxy.port}${target.pathname}` });
    const key = await app.newKey('pro');
    const [{ id: clientId }] = (await app.app.get(ClientsService).list()).slice(-1);
    const subject = `${env.REDIS_KEY_PREFIX}rl:{c:${clientId}}`;
    const ready = async () => (await app.http().get('/health/ready')).body as { status: string; details: Record<string, unknown> };
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const log = jest.spyOn(Logger.prototype, 'log');
    try {
      expect((await app.http().get('/v1/pets').set('Authorization', `Bearer ${key}`)).status).toBe(200);
      expect(await replicas.admin.hget(subject, 'dc')).toBe('1');
      expect((await ready()).details.rateLimiter).toEqual({ status: 'up', store: 'redis', redis: 'up' });

      await proxy.cut();
      const latencies: number[] = [];
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        const res = await app.http().get('/v1/pets').set('Authorization', `Bearer ${key}`);
        latencies.push(performance.now() - started);
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe('300');
      }
      latencies.sort((x, y) => x - y);
      console.log(
        `during the Redis outage: first request ${latencies.at(-1)!.toFixed(1)} ms at most, p50 ${latencies[10].toFixed(1)} ms over 20 requests`,
      );
      expect(latencies.at(-1)).toBeLessThan(1_000);
      const degraded = await ready();
      expect(degraded.status).toBe('degraded');
      expect(degraded.details.rateLimiter).toEqual({ status: 'degraded', store: 'in-process', redis: 'down' });
      expect(warn.mock.calls.filter(([message]) => String(message).startsWith('Redis cannot be reached'))).toHaveLength(1);

      await proxy.start(proxy.port);
      for (let waited = 0; (await ready()).status !== 'ok' && waited < 8_000; waited += 200) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect((await ready()).details.rateLimiter).toEqual({ status: 'up', store: 'redis', redis: 'up' });
      expect(log.mock.calls.filter(([message]) => message === 'Redis answers again; limiting with Redis')).toHaveLength(1);

      expect((await app.http().get('/v1/pets').set('Authorization', `Bearer ${key}`)).status).toBe(200);
      // The 20 requests served in process during the outage were not replayed into Redis.
      expect(await replicas.admin.hget(subject, 'dc')).toBe('2');
    } finally {
      await proxy.cut();
    }
  });

  it('keeps a free client across 2 instances within one quota per instance plus what Redis counted, through a whole-Redis outage and back', async () => {
    const target = new URL(REDIS_URL);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 6379));
    await proxy.start();
    const instances = [
      await start({ REDIS_URL: `redis://127.0.0.1:${proxy.port}${target.pathname}` }),
      await start({ REDIS_URL: `redis://127.0.0.1:${proxy.port}${target.pathname}` }),
    ];
    const key = await instances[0].newKey('free');
    const [{ id: clientId }] = (await instances[0].app.get(ClientsService).list()).slice(-1);
    const subject = `${env.REDIS_KEY_PREFIX}rl:{c:${clientId}}`;
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const lines = (spy: typeof warn, start: string) => spy.mock.calls.filter(([message]) => String(message).startsWith(start)).length;
    const statuses: number[] = [];
    const burst = async (count: number) => {
      const results = await Promise.all(
        Array.from({ length: count }, (_, i) => instances[i % 2].http().get('/v1/pets?limit=1').set('Authorization', `Bearer ${key}`)),
      );
      statuses.push(...results.map((res) => res.status));
    };
    try {
      await awayFromMinuteEnd(20);
      await burst(20);
      await proxy.cut();
      for (let i = 0; i < 10; i++) await burst(20);
      await proxy.start(proxy.port);
      const recovered = () => lines(log, 'Redis answers again') >= Math.max(2, lines(warn, 'Redis cannot be reached'));
      for (let waited = 0; !recovered() && waited < 8_000; waited += 200) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      for (let i = 0; i < 5; i++) await burst(20);
      const admitted = statuses.filter((status) => status === 200).length;
      const redisCounted = Number(await replicas.admin.hget(subject, 'mc'));
      const bound = 2 * 60 + redisCounted;
      console.log(
        `whole-Redis outage, free plan (60/min), 2 instances, ${statuses.length} requests in one minute: admitted ${admitted} ` +
          `(Redis counted ${redisCounted}; bound replicas x quota + Redis count = ${bound}; overshoot over quota ${admitted - 60}); ` +
          `5xx: ${statuses.filter((status) => status >= 500).length}; "cannot be reached" lines: ${lines(warn, 'Redis cannot be reached')}, ` +
          `"answers again" lines: ${lines(log, 'Redis answers again')}`,
      );
      expect(redisCounted).toBe(60);
      expect(admitted).toBeLessThanOrEqual(bound);
      expect(statuses.filter((status) => status >= 500)).toEqual([]);
      // One line per instance and transition: down once, back up once. (A command that times out on
      // a starved machine is a real failure and a transition of its own, so the pairs are counted.)
      expect(lines(warn, 'Redis cannot be reached')).toBeGreaterThanOrEqual(2);
      expect(lines(log, 'Redis answers again')).toBe(lines(warn, 'Redis cannot be reached'));
    } finally {
      await proxy.cut();
    }
  });

  it('bounds the wait on a hung Redis by the command timeout, then serves from the fallback', async () => {
    const target = new URL(REDIS_URL);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 6379));
    await proxy.start();
    const app = await start({ REDIS_URL: `redis://127.0.0.1:${proxy.port}${target.pathname}`, REDIS_COMMAND_TIMEOUT_MS: '200' });
    const key = await app.newKey('pro');
    const timed = async () => {
      const started = performance.now();
      const res = await app.http().get('/v1/pets').set('Authorization', `Bearer ${key}`);
      expect(res.status).toBe(200);
      return performance.now() - started;
    };
    try {
      await timed();
      proxy.stall();
      const first = await timed();
      const next = [await timed(), await timed(), await timed()];
      console.log(
        `hung Redis (command timeout 200 ms): first request ${first.toFixed(0)} ms, then ${next.map((ms) => ms.toFixed(1)).join(', ')} ms`,
      );
      expect(first).toBeGreaterThanOrEqual(190);
      expect(first).toBeLessThan(700);
      // None of the next requests waits for the hung Redis again (each would take the 200 ms timeout);
      // the margin below it absorbs a loaded machine's scheduling.
      expect(Math.max(...next)).toBeLessThan(150);
      proxy.resume();
      for (let waited = 0; (await app.http().get('/health/ready')).body.status !== 'ok' && waited < 8_000; waited += 200) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect((await app.http().get('/health/ready')).body.details.rateLimiter).toMatchObject({ store: 'redis' });
    } finally {
      await proxy.cut();
    }
  });
});
