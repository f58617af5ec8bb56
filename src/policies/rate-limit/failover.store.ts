import { Logger } from '@nestjs/common';
import { RedisCircuit, type RedisClient } from '../../platform/redis/index.js';
import type { InProcessStore } from './in-process.store.js';
import { LimiterStore, type LimiterFacts, type LimiterRequest } from './limiter.store.js';
import type { RedisStore } from './redis.store.js';

/**
 * Redis, or the in-process store while it (or a Cluster slot) cannot answer: a replica then admits one more quota per
 * window at most (docs/operations.md, "Guarantees under faults").
 */
export class FailoverStore extends LimiterStore {
  private readonly circuit: RedisCircuit;

  constructor(
    private readonly primary: RedisStore,
    private readonly fallback: InProcessStore,
    redis: RedisClient,
  ) {
    super();
    this.circuit = new RedisCircuit(redis, new Logger('RateLimiter'), {
      down: (reason) => `Redis cannot be reached (${reason}); limiting in process until it is back`,
      up: 'Redis answers again; limiting with Redis',
    });
  }

  get state() {
    return this.circuit.isOpen ? ({ store: 'in-process', redis: 'down' } as const) : ({ store: 'redis', redis: 'up' } as const);
  }

  consume(request: LimiterRequest): Promise<LimiterFacts> {
    return this.run(request, (store) => store.consume(request));
  }

  peek(request: LimiterRequest): Promise<LimiterFacts> {
    return this.run(request, (store) => store.peek(request));
  }

  private run(request: LimiterRequest, operation: (store: LimiterStore) => Promise<LimiterFacts>): Promise<LimiterFacts> {
    return this.circuit.run(
      request.subjectKey,
      () => operation(this.primary),
      () => operation(this.fallback),
    );
  }

  async close(): Promise<void> {
    this.circuit.close();
    await Promise.all([this.primary.close(), this.fallback.close()]);
  }
}
