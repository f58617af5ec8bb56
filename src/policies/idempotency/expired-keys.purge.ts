import { Injectable } from '@nestjs/common';
import { Clock, HourlyPurge } from '../../common/index.js';
import { IdempotencyKeysRepository } from './idempotency-keys.repository.js';

/** Deletes expired idempotency keys every hour, so the table holds about one day of keys. */
@Injectable()
export class ExpiredKeysPurge extends HourlyPurge {
  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly clock: Clock,
  ) {
    super('IdempotencyKeys', 'expired idempotency keys');
  }

  protected purge(): Promise<number> {
    return this.keys.deleteExpired(this.clock.now());
  }
}
