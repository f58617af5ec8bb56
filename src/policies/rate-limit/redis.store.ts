import { Logger } from '@nestjs/common';
import { Cluster } from 'ioredis';
import type { Clock } from '../../common/index.js';
import { RedisCircuit, type RedisClient } from '../../platform/redis/index.js';
import { LIMITER_SCRIPT, parseScriptReply, scriptArguments } from './limiter.script.js';
import { LimiterStore, type LimiterFacts, type LimiterRequest } from './limiter.store.js';

type WithLimiterCommand = RedisClient & { petsRateLimit(numberOfKeys: number, ...keysAndArgv: string[]): Promise<unknown> };

/**
 * The shared limiter: one EVALSHA per request (ioredis loads the script once and reloads it
 * when Redis answers NOSCRIPT, as after a restart), which also reads the data generation when
 * asked. On a Cluster the generation lives in another slot than the subject, so it is read with
 * a GET sent alongside, behind a circuit of its own: while the node serving it fails, the
 * generation is left unread (reads go to the database) without any request waiting on that node,
 * and the decision stands. Time comes from Redis, one clock for every replica, unless a clock is
 * given (tests).
 */
export class RedisStore extends LimiterStore {
  /** On a Cluster only: whether the node serving the generation's slot answers. */
  private readonly generationCircuit?: RedisCircuit;

  constructor(
    private readonly redis: RedisClient,
    private readonly clock?: Clock,
  ) {
    super();
    if (redis instanceof Cluster) {
      this.generationCircuit = new RedisCircuit(redis, new Logger('ReadCache'), {
        down: (reason) => `The data generation cannot be read (${reason}); reads go to the database until it can`,
        up: 'The data generation can be read again; reads use the read cache',
      });
    }
    redis.defineCommand('petsRateLimit', { lua: LIMITER_SCRIPT });
  }

  async consume(request: LimiterRequest): Promise<LimiterFacts> {
    const argv = scriptArguments(request, this.clock?.now().getTime());
    const { generationKey } = request;
    const circuit = this.generationCircuit;
    if (generationKey === undefined || !circuit) {
      const keys = generationKey === undefined ? [request.subjectKey] : [request.subjectKey, generationKey];
      return parseScriptReply(await this.limiter.petsRateLimit(keys.length, ...keys, ...argv));
    }
    const [reply, generation] = await Promise.all([
      this.limiter.petsRateLimit(1, request.subjectKey, ...argv),
      circuit.run(
        generationKey,
        async () => Number((await this.redis.get(generationKey)) ?? 0),
        () => Promise.resolve(undefined),
      ),
    ]);
    const facts = parseScriptReply(reply);
    return generation === undefined || !Number.isFinite(generation) ? facts : { ...facts, generation };
  }

  /** The client belongs to RedisModule, which closes it. */
  close(): Promise<void> {
    this.generationCircuit?.close();
    return Promise.resolve();
  }

  private get limiter(): WithLimiterCommand {
    return this.redis as WithLimiterCommand;
  }
}
