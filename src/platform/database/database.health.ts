import { Injectable } from '@nestjs/common';
import { TypeOrmHealthIndicator } from '@nestjs/terminus';
import { ReadinessIndicator, type ReadinessCheck } from '../health/index.js';

/** Readiness fails while the database does not answer a ping within 2 s. */
@ReadinessIndicator()
@Injectable()
export class DatabaseHealthIndicator implements ReadinessCheck {
  constructor(private readonly typeOrm: TypeOrmHealthIndicator) {}

  check() {
    return this.typeOrm.pingCheck('database', { timeout: 2_000 });
  }
}
