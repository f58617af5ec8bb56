import { createHash, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RedisIdempotencyStore } from '../../src/policies/idempotency/redis-idempotency.store.js';
import { ClientsService } from '../../src/modules/plans/clients.service.js';
import { describeIdempotencyStore } from '../support/idempotency-store.behaviour.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { holdNextCreation } from '../support/held-creation.js';
import { redisReplicas } from '../support/redis-replicas.js';
import type { TestApp } from '../support/test-app.js';

/**
 * Runs against the real Redis named by REDIS_URL (CI sets it). An unreachable Redis fails
 * these tests; they are never skipped once selected.
 */
const REDIS_URL = process.env.REDIS_URL!;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describeIdempotencyStore('Redis store', (ttl) => {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const store = new RedisIdempotencyStore(redis, `test-${randomUUID()}:`, ttl);
  return Promise.resolve({ store, elapse: sleep, close: async () => void (await redis.quit()) });
});

describe('Redis-backed idempotency in the application (integration)', () => {
  const replicas = redisReplicas('redis-idempotency');
  const { env, start } = replicas;
  const create = (app: TestApp, key: string, idempotencyKey: string, body: object) =>
    app.http().post('/v1/pets').set('Authorization', `Bearer ${key}`).set('Idempotency-Key', idempotencyKey).send(body);
  const petCount = async (app: TestApp) => Number((await app.dataSource.query('SELECT COUNT(*) AS n FROM pets'))[0].n);
  const rowCount = async (app: TestApp) => Number((await app.dataSource.query('SELECT COUNT(*) AS n FROM idempotency_keys'))[0].n);
  const lastClientId = async (app: TestApp) => (await app.app.get(ClientsService).list()).at(-1)!.id;

  it('keeps the key in Redis under the hash-tagged client and the SHA-256 of the header, and replays from it', async () => {
    const app = await start();
    const key = await app.newKey();
    const clientId = await lastClientId(app);
    const idempotencyKey = `order-${randomUUID()}`;
    const rowsBefore = await rowCount(app);
    const before = await petCount(app);

    const first = await create(app, key, idempotencyKey, { name: 'Rex', categoryId: 1 });
    expect(first.status).toBe(201);
    const redisKey = `${env.REDIS_KEY_PREFIX}idem:{c:${clientId}}:${sha256(idempotencyKey)}`;
    expect(await replicas.admin.exists(redisKey)).toBe(1);
    const ttl = await replicas.admin.pttl(redisKey);
    expect(ttl).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3_600_000);
    const written = await replicas.admin.keys(`${env.REDIS_KEY_PREFIX}idem:*`);
    expect(written.join(' ')).not.toContain(idempotencyKey);

    const retry = await create(app, key, idempotencyKey, { categoryId: 1, name: 'Rex' });
    expect(retry.status).toBe(201);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.location).toBe(first.headers.location);
    expect(await petCount(app)).toBe(before + 1);
    // The completed creation is recorded in the database too, once, with the animal.
    expect(await rowCount(app)).toBe(rowsBefore + 1);
  });

  it('answers a different body with 422 and a retry while the first runs with 409', async () => {
    const app = await start();
    const key = await app.newKey();
    const idempotencyKey = `order-${randomUUID()}`;
    const { entered: handlerEntered, release } = holdNextCreation(app.app);
    const before = await petCount(app);

    const first = create(app, key, idempotencyKey, { name: 'Slow', categoryId: 1 }).then((res) => res);
    await handlerEntered;
    const conflict = await create(app, key, idempotencyKey, { name: 'Slow', categoryId: 1 });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('idempotency_conflict');
    release();
    expect((await first).status).toBe(201);

    const reused = await create(app, key, idempotencyKey, { name: 'Other', categoryId: 1 });
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ code: 'idempotency_key_reused', message: expect.any(String), status: 422 });
    expect(await petCount(app)).toBe(before + 1);
  });

  it('releases the key in Redis after an error, so a corrected retry succeeds', async () => {
    const app = await start();
    const key = await app.newKey();
    const idempotencyKey = `order-${randomUUID()}`;
    expect((await create(app, key, idempotencyKey, { name: '', categoryId: 1 })).status).toBe(400);
    expect(await replicas.admin.keys(`${env.REDIS_KEY_PREFIX}idem:*:${sha256(idempotencyKey)}`)).toEqual([]);
    expect((await create(app, key, idempotencyKey, { name: 'Rex', categoryId: 1 })).status).toBe(201);
  });

  it('replays on another instance sharing the Redis what the first instance created', async () => {
    const [a, b] = [await start(), await start()];
    const key = await a.newKey();
    const idempotencyKey = `order-${randomUUID()}`;
    const before = await petCount(a);

    const first = await create(a, key, idempotencyKey, { name: 'Rex', categoryId: 1 });
    expect(first.status).toBe(201);
    const onB = await create(b, key, idempotencyKey, { name: 'Rex', categoryId: 1 });
    expect(onB.status).toBe(201);
    expect(onB.text).toBe(first.text);
    expect(onB.headers.location).toBe(first.headers.location);
    expect((await create(b, key, idempotencyKey, { name: 'Max', categoryId: 1 })).status).toBe(422);

    // Concurrent identical requests spread over both instances create exactly one animal.
    const concurrentKey = `order-${randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => create(i % 2 ? b : a, key, concurrentKey, { name: 'Twin', categoryId: 2 }).then((res) => res)),
    );
    const statuses = results.map((res) => res.status);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    const created = new Set(results.filter((res) => res.status === 201).map((res) => res.body.id as number));
    expect(created.size).toBe(1);
    expect(await petCount(b)).toBe(before + 2);
  });

  it('falls back to the database while Redis is unreachable (no 5xx, still idempotent), then returns to Redis', async () => {
    const target = new URL(REDIS_URL);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 6379));
    await proxy.start();
    const app = await start({ REDIS_URL: `redis://127.0.0.1:${proxy.port}` });
    const key = await app.newKey();
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const log = jest.spyOn(Logger.prototype, 'log');
    const fallbackWarnings = () =>
      warn.mock.calls.filter(([message]) => String(message).startsWith('Redis cannot be reached for idempotency'));
    try {
      expect((await create(app, key, `order-${randomUUID()}`, { name: 'Rex', categoryId: 1 })).status).toBe(201);
      const rowsBefore = await rowCount(app);

      await proxy.cut();
      const idempotencyKey = `order-${randomUUID()}`;
      const before = await petCount(app);
      const first = await create(app, key, idempotencyKey, { name: 'Offline', categoryId: 1 });
      expect(first.status).toBe(201);
      const retry = await create(app, key, idempotencyKey, { name: 'Offline', categoryId: 1 });
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.location).toBe(first.headers.location);
      expect((await create(app, key, idempotencyKey, { name: 'Changed', categoryId: 1 })).status).toBe(422);
      expect(await petCount(app)).toBe(before + 1);
      expect(await rowCount(app)).toBe(rowsBefore + 1);
      expect(fallbackWarnings()).toHaveLength(1);

      await proxy.start(proxy.port);
      const back = () => log.mock.calls.some(([message]) => message === 'Redis answers again; idempotency keys are kept in Redis');
      for (let waited = 0; !back() && waited < 8_000; waited += 200) await sleep(200);
      expect(back()).toBe(true);

      const afterRecovery = `order-${randomUUID()}`;
      expect((await create(app, key, afterRecovery, { name: 'Online', categoryId: 1 })).status).toBe(201);
      expect(await replicas.admin.keys(`${env.REDIS_KEY_PREFIX}idem:*:${sha256(afterRecovery)}`)).toHaveLength(1);
      expect(await rowCount(app)).toBe(rowsBefore + 2);
      expect(fallbackWarnings()).toHaveLength(1);
    } finally {
      await proxy.cut();
    }
  });

  it('replays the first 201 from the database record when Redis has forgotten the key, and creates nothing more', async () => {
    const app = await start();
    const key = await app.newKey();
    const clientId = await lastClientId(app);
    const idempotencyKey = `order-${randomUUID()}`;
    const before = await petCount(app);
    const first = await create(app, key, idempotencyKey, { name: 'Rex', categoryId: 1 });
    expect(first.status).toBe(201);
    // What a failover to a replica that had not received the key, or a restart, leaves behind.
    const redisKey = `${env.REDIS_KEY_PREFIX}idem:{c:${clientId}}:${sha256(idempotencyKey)}`;
    expect(await replicas.admin.del(redisKey)).toBe(1);

    const retry = await create(app, key, idempotencyKey, { name: 'Rex', categoryId: 1 });
    expect(retry.status).toBe(201);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.location).toBe(first.headers.location);
    expect(await petCount(app)).toBe(before + 1);
    // Redis learns the response again, so the next retry is served from it.
    expect(JSON.parse((await replicas.admin.get(redisKey))!)).toMatchObject({ state: 'completed', response: { body: first.body } });
  });

  it('bounds the wait on a hung Redis by the command timeout, then keeps keys in the database', async () => {
    const target = new URL(REDIS_URL);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 6379));
    await proxy.start();
    const app = await start({ REDIS_URL: `redis://127.0.0.1:${proxy.port}`, REDIS_COMMAND_TIMEOUT_MS: '200' });
    const key = await app.newKey();
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      proxy.stall();
      const idempotencyKey = `order-${randomUUID()}`;
      const started = performance.now();
      const first = await create(app, key, idempotencyKey, { name: 'Hung', categoryId: 1 });
      const elapsed = performance.now() - started;
      expect(first.status).toBe(201);
      // The limiter and the idempotency store each wait out one command timeout at most.
      expect(elapsed).toBeLessThan(1_500);
      const retry = await create(app, key, idempotencyKey, { name: 'Hung', categoryId: 1 });
      expect(retry.body).toEqual(first.body);
    } finally {
      proxy.resume();
      await proxy.cut();
    }
  });
});
