import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { decodeCursor, encodeCursor } from '../../../src/common/pagination/cursor.js';
import { hashApiKey } from '../../../src/modules/auth/api-key.format.js';
import { bearerToken } from '../../../src/modules/auth/bearer-token.js';
import { limitsFor, type PlanLimits } from '../../../src/modules/plans/plan-catalogue.js';

/** How long a looked-up key is trusted (the service caches for 4 s too). */
const KEY_TTL_MS = 4_000;

interface Caller {
  keyHash: string;
  limits: PlanLimits;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
  interface FastifyContextConfig {
    public?: boolean;
  }
}

/** int8 ids arrive as strings; the response schema writes them as integers. */
interface PetRow {
  id: string;
  name: string;
  categoryId: number;
  status: string;
}

interface KeyRow {
  expires_at: Date | null;
  plan: string;
  per_minute_limit: string | null;
  per_day_limit: string | null;
}

interface ListQuery {
  limit: number;
  status?: 'available' | 'pending' | 'sold';
  cursor?: string;
}

const listSchema = {
  querystring: {
    type: 'object',
    additionalProperties: false,
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      status: { type: 'string', enum: ['available', 'pending', 'sold'] },
      cursor: { type: 'string', maxLength: 200, pattern: '^[A-Za-z0-9._-]+$' },
    },
  },
  response: {
    200: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'integer' }, name: { type: 'string' }, categoryId: { type: 'integer' }, status: { type: 'string' } },
      },
    },
  },
} as const;

// One keyset query per request, prepared once per connection under its name.
const PAGE = 'SELECT id, name, category_id AS "categoryId", status FROM pets WHERE id > $1 ORDER BY id LIMIT $2';
const PAGE_BY_STATUS = 'SELECT id, name, category_id AS "categoryId", status FROM pets WHERE id > $1 AND status = $3 ORDER BY id LIMIT $2';
const KEY = `SELECT k.expires_at, c.plan, c.per_minute_limit, c.per_day_limit
  FROM api_keys k JOIN clients c ON c.id = k.client_id WHERE k.key_hash = $1 AND k.revoked_at IS NULL`;

const error = (status: number, code: string, message: string) => ({ code, message, status });

/**
 * `GET /v1/pets?limit=&status=&cursor=` as a speed-minded team would write it on Fastify 5: JSON-schema
 * query and response, node-postgres, a bearer hook with a 4 s key cache, and `@fastify/rate-limit` in
 * Redis with the plan's per-minute limit. The same JSON and `Link` header as the service's list.
 */
export async function buildApp({ pool, redis, keyPrefix }: { pool: pg.Pool; redis: Redis; keyPrefix: string }): Promise<FastifyInstance> {
  const app = Fastify({ logger: { level: 'warn' } });
  const keys = new Map<string, { caller: Caller | undefined; until: number }>();

  async function lookUp(keyHash: string): Promise<Caller | undefined> {
    const now = Date.now();
    const cached = keys.get(keyHash);
    if (cached && cached.until > now) return cached.caller;
    const { rows } = await pool.query<KeyRow>({ name: 'api-key', text: KEY, values: [keyHash] });
    const row = rows.at(0);
    const live = row && (!row.expires_at || row.expires_at.getTime() > now);
    const own = (limit: string | null) => (limit === null ? null : Number(limit));
    const limits = live
      ? limitsFor(row.plan, { perMinuteLimit: own(row.per_minute_limit), perDayLimit: own(row.per_day_limit) })
      : undefined;
    const caller = limits && { keyHash, limits };
    keys.set(keyHash, { caller, until: now + KEY_TTL_MS });
    return caller;
  }

  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.public) return;
    const key = bearerToken(request.headers.authorization);
    request.caller = key ? await lookUp(hashApiKey(key)) : undefined;
    if (!request.caller) return reply.code(401).send(error(401, 'unauthorized', key ? 'Invalid API key' : 'Missing API key'));
  });

  // Registered after the bearer hook: its per-route onRequest hook runs once the caller is known.
  await app.register(rateLimit, {
    redis,
    nameSpace: keyPrefix,
    timeWindow: 60_000,
    max: (request) => request.caller?.limits.perMinute ?? 0,
    keyGenerator: (request) => request.caller?.keyHash ?? request.ip,
  });

  app.get('/health', { config: { public: true, rateLimit: false } }, () => ({ status: 'ok' }));

  app.get<{ Querystring: ListQuery }>('/v1/pets', { schema: listSchema }, async (request, reply) => {
    const { limit, status, cursor } = request.query;
    let after = 0;
    if (cursor !== undefined) {
      const position = decodeCursor(cursor);
      if (!Number.isSafeInteger(position?.after) || (position?.status ?? null) !== (status ?? null)) {
        return reply.code(400).send(error(400, 'validation_failed', 'cursor is malformed or belongs to another listing'));
      }
      after = position!.after as number;
    }
    const query = status
      ? { name: 'page-by-status', text: PAGE_BY_STATUS, values: [after, limit + 1, status] }
      : { name: 'page', text: PAGE, values: [after, limit + 1] };
    const { rows } = await pool.query<PetRow>(query);
    if (rows.length > limit) {
      rows.length = limit;
      const next = new URLSearchParams({
        limit: String(limit),
        ...(status && { status }),
        cursor: encodeCursor({ after: Number(rows[limit - 1].id), status: status ?? null }),
      });
      reply.header('Link', `<${request.protocol}://${request.host.toLowerCase()}/v1/pets?${next.toString()}>; rel="next"`);
    }
    return rows;
  });

  return app;
}
