import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import request from 'supertest';
import { buildApp } from '../../bench/peers/fastify-build/app.js';
import { hashApiKey } from '../../src/modules/auth/api-key.format.js';
import { emptyDatabase } from '../support/test-databases.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * The benchmark's Fastify build (bench/peers/fastify-build) on the real PostgreSQL named by
 * DATABASE_URL and the Redis named by REDIS_URL: it answers the list as the service does, JSON and
 * `Link` alike, on the service's own tables and key, and holds its per-minute limit in Redis.
 */
/** A database of this suite's own (test/support/test-databases.ts). */
const DATABASE_URL = await emptyDatabase();
const REDIS_URL = process.env.REDIS_URL;
const HOST = 'pets.example';

describe('the Fastify build on PostgreSQL and Redis (integration)', () => {
  let service: TestApp;
  let peer: FastifyInstance;
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  const redis = new Redis(REDIS_URL ?? '', { lazyConnect: true, maxRetriesPerRequest: 1 });
  const keyPrefix = `test:fastify:${randomUUID()}:`;
  // Over HTTP with supertest: Fastify's inject() needs require(esm), which Jest's runtime lacks on Node 20.
  const get = (url: string, key?: string) => {
    const call = request(peer.server).get(url).set('Host', HOST);
    return key ? call.set('Authorization', `Bearer ${key}`) : call;
  };

  beforeAll(async () => {
    expect(REDIS_URL).toMatch(/^rediss?:\/\//);
    await redis.connect();
    service = await createTestApp({ env: { DATABASE_URL } });
    await service.dataSource.query(
      `INSERT INTO pets (name, category_id, status) SELECT 'Pet ' || n, 1 + n % 20, CASE WHEN n % 2 = 0 THEN 'available' ELSE 'sold' END FROM generate_series(1, 45) n`,
    );
    peer = await buildApp({ pool, redis, keyPrefix });
    await peer.ready();
  });

  afterAll(async () => {
    await peer?.close();
    await service?.close();
    await pool.end();
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('answers each page, and its Link, as the service does', async () => {
    const key = await service.newKey();
    for (const first of ['/v1/pets?limit=20', '/v1/pets?status=available']) {
      let url: string | undefined = first;
      for (let pages = 0; url && pages < 5; pages++) {
        const ours = await service.http().get(url).set('Host', HOST).set('Authorization', `Bearer ${key}`);
        const theirs = await get(url, key);
        expect([theirs.status, theirs.body, theirs.headers.link]).toEqual([200, ours.body, ours.headers.link]);
        url = /^<https?:\/\/[^/]+(\/[^>]+)>/.exec(String(theirs.headers.link ?? ''))?.[1];
      }
    }
  });

  it('refuses a request without a valid key, and counts a key’s plan limit in Redis', async () => {
    expect((await get('/v1/pets')).status).toBe(401);
    expect((await get('/v1/pets', 'pets_not-a-key')).status).toBe(401);
    const key = await service.newKey('enterprise', { perMinute: 3, perDay: 1_000 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get('/v1/pets', key)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(await redis.pttl(`${keyPrefix}${hashApiKey(key)}`)).toBeGreaterThan(50_000);
  });
});
