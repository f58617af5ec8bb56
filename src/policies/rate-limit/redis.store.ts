import type { Clock } from '../../common/index.js';
import type { RedisClient } from '../../platform/redis/index.js';
import { LIMITER_SCRIPT, parseScriptReply, scriptArguments } from './limiter.script.js';
import { LimiterStore, type LimiterFacts, type LimiterRequest } from './limiter.store.js';

type WithLimiterCommand = RedisClient & { petsRateLimit(numberOfKeys: number, ...keysAndArgv: string[]): Promise<unknown> };

/**
 * The shared limiter: one EVALSHA per request (ioredis loads the script once and reloads it when
 * Redis answers NOSCRIPT, as after a restart), which also reads `alsoReadKey` when asked. Time
 * comes from Redis, one clock for every replica, unless a clock is given (tests).
 */
export class RedisStore extends LimiterStore {
  private readonly redis: WithLimiterCommand;

  constructor(
    redis: RedisClient,
    private readonly clock?: Clock,
  ) {
    super();
    redis.defineCommand('petsRateLimit', { lua: LIMITER_SCRIPT });
    this.redis = redis as WithLimiterCommand;
  }

  async consume(request: LimiterRequest): Promise<LimiterFacts> {
    const keys = request.alsoReadKey === undefined ? [request.subjectKey] : [request.subjectKey, request.alsoReadKey];
    const argv = scriptArguments(request, this.clock?.now().getTime());
    return parseScriptReply(await this.redis.petsRateLimit(keys.length, ...keys, ...argv));
  }

  /** The client belongs to RedisModule, which closes it. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
