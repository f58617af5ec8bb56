// The servers' data: PostgreSQL databases made for the run, the animals seeded into them, keys made
// by each build's own CLI, and Redis (checked, and its keys of the run removed).
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { run } from './processes.mjs';
import { serviceEnv } from './servers.mjs';

/** A plan no load reaches: per-minute and per-day limits of a thousand million. */
const ENTERPRISE = ['--plan', 'enterprise', '--per-minute', '1000000000', '--per-day', '1000000000'];

/** The seeded animals: names "Pet n", categories 1..20, 6 in 10 available, 3 pending, 1 sold. */
const seedSql = (count) => `WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${count})
  INSERT INTO pets (name, category_id, status)
  SELECT 'Pet ' || n, 1 + n % 20, CASE WHEN n % 10 < 6 THEN 'available' WHEN n % 10 < 9 THEN 'pending' ELSE 'sold' END
  FROM g ORDER BY n`;

export const databaseName = (url) => decodeURIComponent(new URL(url).pathname.slice(1));

/**
 * Drops and creates the PostgreSQL database `url` names, so every run starts from the same state;
 * resolves with the server's version. Only a database named for the benchmark is ever dropped.
 */
export async function freshPostgres(url) {
  const name = databaseName(url);
  if (!name.includes('bench'))
    throw new Error(`DATABASE_URL must name a database for the benchmark (its name containing "bench"): it is dropped; got "${name}"`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    return (await client.query('SHOW server_version')).rows[0].server_version;
  } finally {
    await client.end();
  }
}

/**
 * Inserts `count` animals into the (migrated, empty) pets table of `url`; resolves with the id of one
 * in the middle, for `GET /v1/pets/{id}`.
 */
export async function seed(url, count) {
  const middle = `SELECT id FROM pets ORDER BY id LIMIT 1 OFFSET ${Math.floor(count / 2)}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(seedSql(count));
    await client.query('ANALYZE pets');
    return Number((await client.query(middle)).rows[0].id);
  } finally {
    await client.end();
  }
}

/**
 * A new enterprise key, made by the CLI of the build in `cwd` (which applies that build's migrations
 * first) on `databaseUrl`, or on the embedded default of `workdir`.
 */
export async function createKey(cwd, databaseUrl, workdir = cwd) {
  const out = await run(process.execPath, [join(cwd, 'dist/src/cli.js'), 'keys', 'create', ...ENTERPRISE, '--json'], {
    cwd: workdir,
    env: serviceEnv(databaseUrl),
  });
  const { key } = JSON.parse(out.trim().split('\n').pop() ?? '{}');
  if (!key) throw new Error(`the CLI in ${cwd} printed no key:\n${out}`);
  return key;
}

/**
 * Subscribes `count` endpoints of the newest client (the key's) to pet.created, if the build at `url` has
 * webhooks; resolves with whether it has. The URLs are never called: the measured replica delivers nothing.
 */
export async function subscribeEndpoints(url, count) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (count === 0 || !(await client.query(`SELECT to_regclass('webhook_endpoints') AS t`)).rows[0].t) return false;
    await client.query(
      `INSERT INTO webhook_endpoints (client_id, url, event_types, secret)
       SELECT (SELECT max(id) FROM clients), 'https://hooks.bench.invalid/' || n, '{pet.created}', 'whsec_' || md5(n::text)
       FROM generate_series(1, $1) AS n`,
      [count],
    );
    return true;
  } finally {
    await client.end();
  }
}

/** `work` with a client of the Redis at `url`, which fails at once when that Redis does not answer. */
async function withRedis(url, work) {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await work(redis);
  } finally {
    redis.disconnect();
  }
}

/** The version of the Redis at `url`; undefined when it does not answer. */
export const redisVersion = (url) =>
  withRedis(url, async (redis) => /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? 'unknown').catch(() => undefined);

/** Removes the keys under `prefix` (the run's own; other users of this Redis keep theirs). */
export const removeRedisKeys = (url, prefix) =>
  withRedis(url, async (redis) => {
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 1_000 })) if (keys.length) await redis.unlink(...keys);
  });
