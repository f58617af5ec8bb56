import { DiscoveryService } from '@nestjs/core';
import type { HealthCheckAttempt, HealthIndicatorResult } from '@nestjs/terminus';

/**
 * A check `GET /health/ready` runs, on a provider marked `@ReadinessIndicator()`: `down` answers 503
 * and takes the instance out of the load balancer; `degraded` reports without failing.
 */
export interface ReadinessCheck {
  check(): HealthIndicatorResult | PromiseLike<HealthIndicatorResult> | HealthCheckAttempt;
}

export const ReadinessIndicator = DiscoveryService.createDecorator<void>();
