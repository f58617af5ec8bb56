import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { ReadinessIndicator, type ReadinessCheck } from '../../../src/platform/health/index.js';

/** Reports the kennels in readiness (always up: they live in memory). */
@ReadinessIndicator()
@Injectable()
export class KennelsHealthIndicator implements ReadinessCheck {
  constructor(private readonly indicators: HealthIndicatorService) {}

  check() {
    return this.indicators.check('kennels').up({ open: true });
  }
}
