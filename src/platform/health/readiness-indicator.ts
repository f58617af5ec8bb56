import { DiscoveryService } from '@nestjs/core';
import type { HealthCheckAttempt, HealthIndicatorResult } from '@nestjs/terminus';

/** Run by `GET /health/ready` on `@ReadinessIndicator()` providers: `down` answers 503 (out of the balancer), `degraded` does not. */
export interface ReadinessCheck {
  check(): HealthIndicatorResult | PromiseLike<HealthIndicatorResult> | HealthCheckAttempt;
}

export const ReadinessIndicator = DiscoveryService.createDecorator<void>();
