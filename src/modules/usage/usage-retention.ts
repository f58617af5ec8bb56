import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../../common/index.js';
import { UsageDaysRepository } from './usage-days.repository.js';
import { dayText, utcDayOf } from './utc-day.js';

/** How long usage is kept (docs/contract/decisions.md, "Usage"). */
export const USAGE_RETENTION_DAYS = 400;
const PURGE_INTERVAL_MS = 60 * 60_000;

/** Deletes the days older than the retention every hour: a statement an hour per replica, none per flush. */
@Injectable()
export class UsageRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Usage');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly days: UsageDaysRepository,
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
      return await this.days.deleteBefore(dayText(utcDayOf(this.clock.now().getTime()) - USAGE_RETENTION_DAYS));
    } catch (error) {
      this.logger.warn(`Could not delete old usage: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    }
  }
}
