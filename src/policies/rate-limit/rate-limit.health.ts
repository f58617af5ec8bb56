import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { ReadinessIndicator, type ReadinessCheck } from '../../platform/health/index.js';
import { FailoverStore } from './failover.store.js';
import { LimiterStore } from './limiter.store.js';

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
