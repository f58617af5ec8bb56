import { Cluster } from 'ioredis';
import type { Clock } from '../common/index.js';
import type { RedisClient } from '../redis/index.js';
import { LIMITER_SCRIPT, parseScriptReply, scriptArguments } from './limiter.script.js';
import { LimiterStore, type LimiterFacts, type LimiterRequest } from './limiter.store.js';

type WithLimiterCommand = RedisClient & { petsRateLimit(numberOfKeys: number, ...keysAndArgv: string[]): Promise<unknown> };

/**
 * The shared limiter: one EVALSHA per request (ioredis loads the script once and reloads it
 * when Redis answers NOSCRIPT, as after a restart), which also reads the data generation when
 * asked. On a Cluster the generation lives in another slot than the subject, so it is read with
 * a GET sent alongside; if that fails, the generation is left unread (the read cache is bypassed)
 * and the decision stands. Time comes from Redis, one clock for every replica, unless a clock is
 * given (tests).
 */
export class RedisStore extends LimiterStore {
  private readonly cluster: boolean;

  constructor(
    private readonly redis: RedisClient,
    private readonly clock?: Clock,
  ) {
    super();
    this.cluster = redis instanceof Cluster;
    redis.defineCommand('petsRateLimit', { lua: LIMITER_SCRIPT });
  }

  async consume(request: LimiterRequest): Promise<LimiterFacts> {
    const argv = scriptArguments(request, this.clock?.now().getTime());
    const { generationKey } = request;
    if (generationKey === undefined || !this.cluster) {
      const keys = generationKey === undefined ? [request.subjectKey] : [request.subjectKey, generationKey];
      return parseScriptReply(await this.limiter.petsRateLimit(keys.length, ...keys, ...argv));
    }
    const [reply, generation] = await Promise.all([
      this.limiter.petsRateLimit(1, request.subjectKey, ...argv),
      this.redis.get(generationKey).then(
        (value) => Number(value ?? 0),
        () => undefined,
      ),
    ]);
    const facts = parseScriptReply(reply);
    return generation === undefined || !Number.isFinite(generation) ? facts : { ...facts, generation };
  }

  /** The client belongs to RedisModule, which closes it. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  private get limiter(): WithLimiterCommand {
    return this.redis as WithLimiterCommand;
  }
}
