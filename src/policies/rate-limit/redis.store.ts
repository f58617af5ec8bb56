import type { Clock } from '../../common/index.js';
import type { RedisClient } from '../../platform/redis/index.js';
import { LIMITER_PEEK_SCRIPT, LIMITER_SCRIPT, parseScriptReply } from './limiter.script.js';
import { LimiterStore, type LimiterFacts, type LimiterRequest } from './limiter.store.js';

type LimiterCommand = (numberOfKeys: number, ...keysAndArgv: string[]) => Promise<unknown>;
type WithLimiterCommands = RedisClient & { petsRateLimit: LimiterCommand; petsRateLimitPeek: LimiterCommand };

/** One EVALSHA per request, consume or peek (ioredis reloads a script on NOSCRIPT); Redis's clock, one for every replica, unless tests give one. */
export class RedisStore extends LimiterStore {
  private readonly redis: WithLimiterCommands;

  constructor(
    redis: RedisClient,
    private readonly clock?: Clock,
  ) {
    super();
    redis.defineCommand('petsRateLimit', { lua: LIMITER_SCRIPT });
    redis.defineCommand('petsRateLimitPeek', { lua: LIMITER_PEEK_SCRIPT });
    this.redis = redis as WithLimiterCommands;
  }

  consume(request: LimiterRequest): Promise<LimiterFacts> {
    return this.run(this.redis.petsRateLimit, request);
  }

  peek(request: LimiterRequest): Promise<LimiterFacts> {
    return this.run(this.redis.petsRateLimitPeek, request);
  }

  private async run(command: LimiterCommand, { subjectKey, alsoReadKey, limits, keyId, ban }: LimiterRequest): Promise<LimiterFacts> {
    const keys = alsoReadKey === undefined ? [subjectKey] : [subjectKey, alsoReadKey];
    const now = this.clock?.now().getTime() ?? '';
    const argv = [now, limits.perMinute, limits.perDay, keyId ?? '', ban.threshold, ban.durationMs].map(String);
    return { ...parseScriptReply(await command.call(this.redis, keys.length, ...keys, ...argv)), store: 'redis' };
  }
}
