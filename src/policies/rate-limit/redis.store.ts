import type { Clock } from '../../common/index.js';
import type { RedisClient } from '../../platform/redis/index.js';
import { LIMITER_SCRIPT, parseScriptReply, scriptArguments } from './limiter.script.js';
import { LimiterStore, type LimiterFacts, type LimiterRequest } from './limiter.store.js';

type WithLimiterCommand = RedisClient & { petsRateLimit(numberOfKeys: number, ...keysAndArgv: string[]): Promise<unknown> };

/** One EVALSHA per request (ioredis reloads the script on NOSCRIPT); Redis's clock, one for every replica, unless tests give one. */
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

  /** RedisModule closes the client. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
