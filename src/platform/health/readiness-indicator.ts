import { DiscoveryService } from '@nestjs/core';
import type { HealthCheckAttempt, HealthIndicatorResult } from '@nestjs/terminus';

/**
 * A check readiness runs (`GET /health/ready`). A module provides it and marks the provider
 * `@ReadinessIndicator()`; the health module runs every one, in module order. A `down` result
 * answers 503 and takes the instance out of the load balancer; `degraded` reports without failing.
 */
export interface ReadinessCheck {
  check(): HealthIndicatorResult | PromiseLike<HealthIndicatorResult> | HealthCheckAttempt;
}

export const ReadinessIndicator = DiscoveryService.createDecorator<void>();
