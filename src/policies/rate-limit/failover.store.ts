import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { RedisCircuit, type RedisClient } from '../../platform/redis/index.js';
import type { InProcessStore } from './in-process.store.js';
import { LimiterStore, type LimiterFacts, type LimiterRequest } from './limiter.store.js';
import type { RedisStore } from './redis.store.js';

/** Redis, else in process while it (or a Cluster slot) fails: a replica then admits one quota more per window at most (docs/faults.md). */
export class FailoverStore extends LimiterStore implements OnApplicationShutdown {
  private readonly circuit = new RedisCircuit(this.redis, new Logger('RateLimiter'), {
    down: (reason) => `Redis cannot be reached (${reason}); limiting in process until it is back`,
    up: 'Redis answers again; limiting with Redis',
  });

  constructor(
    private readonly primary: RedisStore,
    private readonly fallback: InProcessStore,
    private readonly redis: RedisClient,
  ) {
    super();
  }

  get state() {
    return this.circuit.isOpen ? ({ store: 'in-process', redis: 'down' } as const) : ({ store: 'redis', redis: 'up' } as const);
  }

  consume(request: LimiterRequest): Promise<LimiterFacts> {
    return this.run(request, 'consume');
  }

  peek(request: LimiterRequest): Promise<LimiterFacts> {
    return this.run(request, 'peek');
  }

  private run(request: LimiterRequest, operation: 'consume' | 'peek'): Promise<LimiterFacts> {
    return this.circuit.run(
      request.subjectKey,
      () => this.primary[operation](request),
      () => this.fallback[operation](request),
    );
  }

  onApplicationShutdown(): void {
    this.circuit.close();
  }
}
