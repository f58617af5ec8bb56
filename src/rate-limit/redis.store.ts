import type { Clock } from '../common/index.js';
import type { RedisClient } from '../redis/index.js';
import { LIMITER_SCRIPT, parseScriptReply, scriptArguments } from './limiter.script.js';
import { LimiterStore, type LimiterFacts, type LimiterRequest } from './limiter.store.js';

type WithLimiterCommand = RedisClient & { petsRateLimit(key: string, ...argv: string[]): Promise<unknown> };

/**
 * The shared limiter: one EVALSHA per request (ioredis loads the script once and reloads it
 * when Redis answers NOSCRIPT, as after a restart). Time comes from Redis, one clock for every
 * replica, unless a clock is given (tests).
 */
export class RedisStore extends LimiterStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly clock?: Clock,
  ) {
    super();
    redis.defineCommand('petsRateLimit', { numberOfKeys: 1, lua: LIMITER_SCRIPT });
  }

  async consume(request: LimiterRequest): Promise<LimiterFacts> {
    const reply = await (this.redis as WithLimiterCommand).petsRateLimit(
      request.subjectKey,
      ...scriptArguments(request, this.clock?.now().getTime()),
    );
    return parseScriptReply(reply);
  }

  /** The client belongs to RedisModule, which closes it. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
