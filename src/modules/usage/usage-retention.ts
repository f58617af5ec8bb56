import { Injectable } from '@nestjs/common';
import { Clock, HourlyPurge } from '../../common/index.js';
import { UsageDaysRepository } from './usage-days.repository.js';
import { dayText, utcDayOf } from './utc-day.js';

/** How long usage is kept (docs/contract/decisions.md, "Usage"). */
export const USAGE_RETENTION_DAYS = 400;

/** Deletes the days older than the retention every hour: a statement an hour per replica, none per flush. */
@Injectable()
export class UsageRetention extends HourlyPurge {
  constructor(
    private readonly days: UsageDaysRepository,
    private readonly clock: Clock,
  ) {
    super('Usage', 'old usage');
  }

  protected purge(): Promise<number> {
    return this.days.deleteBefore(dayText(utcDayOf(this.clock.now().getTime()) - USAGE_RETENTION_DAYS));
  }
}
