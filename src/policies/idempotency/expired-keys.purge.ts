import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../../common/index.js';
import { IdempotencyKeysRepository } from './idempotency-keys.repository.js';

const PURGE_INTERVAL_MS = 60 * 60_000;

/** Deletes expired idempotency keys every hour, so the table holds about one day of keys. */
@Injectable()
export class ExpiredKeysPurge implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('IdempotencyKeys');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.run(), PURGE_INTERVAL_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** One purge; a failure (the database is out) is logged and retried at the next interval. */
  async run(): Promise<number> {
    try {
      return await this.keys.deleteExpired(this.clock.now());
    } catch (error) {
      this.logger.warn(`Could not purge expired idempotency keys: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    }
  }
}
