import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { FailoverStore } from './failover.store.js';
import { LimiterStore } from './limiter.store.js';

@Injectable()
export class RateLimitMetrics {
  readonly decisions: Counter<'plan' | 'outcome'>;

  constructor(registry: Registry, store: LimiterStore) {
    this.decisions = new Counter({
      name: 'rate_limit_decisions_total',
      help: 'Rate-limit decisions, by plan (anonymous for callers without a valid key) and outcome.',
      labelNames: ['plan', 'outcome'],
      registers: [registry],
    });
    new Gauge({
      name: 'rate_limiter_degraded',
      help: '1 while Redis is unreachable and the limiter runs on its in-process fallback, else 0.',
      registers: [registry],
      collect() {
        this.set(store instanceof FailoverStore && store.state.store === 'in-process' ? 1 : 0);
      },
    });
  }
}
