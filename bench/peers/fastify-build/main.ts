/**
 * The benchmark's second peer: the service's list endpoint as a speed-minded team would build it on
 * Fastify 5 (app.ts), on the service's database, keys and Redis. Built by
 * `tsc -p bench/peers/fastify-build/tsconfig.json` into dist/bench/peers/fastify-build.
 * Environment: DATABASE_URL (PostgreSQL), REDIS_URL, REDIS_KEY_PREFIX, PORT, HOST.
 */
import { Redis } from 'ioredis';
import pg from 'pg';
import { buildApp } from './app.js';

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set`);
  return value;
}

const pool = new pg.Pool({ connectionString: requiredEnv('DATABASE_URL'), max: 10 });
const redis = new Redis(requiredEnv('REDIS_URL'), { connectTimeout: 500, maxRetriesPerRequest: 1 });
const app = await buildApp({ pool, redis, keyPrefix: process.env.REDIS_KEY_PREFIX ?? 'fastify-rate-limit:' });
app.addHook('onClose', async () => {
  await Promise.all([pool.end(), redis.quit()]);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close());
await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
