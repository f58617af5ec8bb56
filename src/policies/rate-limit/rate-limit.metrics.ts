import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { Counter, Gauge, Registry } from 'prom-client';
import { ReadinessIndicator, type ReadinessCheck } from '../../platform/health/index.js';
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

/** `degraded` (still 200) while Redis is out: pulling every replica out of the balancer would turn it into an API outage. */
@ReadinessIndicator()
@Injectable()
export class RateLimitHealthIndicator implements ReadinessCheck {
  constructor(
    private readonly store: LimiterStore,
    private readonly indicators: HealthIndicatorService,
  ) {}

  check(key = 'rateLimiter'): HealthIndicatorResult {
    const indicator = this.indicators.check(key);
    if (!(this.store instanceof FailoverStore)) return indicator.up({ store: 'in-process', redis: 'not configured' });
    const state = { ...this.store.state };
    return state.redis === 'up' ? indicator.up(state) : indicator.degraded(state);
  }
}
