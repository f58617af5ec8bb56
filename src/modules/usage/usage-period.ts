import { ValidationFailedException } from '../../common/index.js';
import { dayText, utcDayOf } from './utc-day.js';

/** The longest period one reading covers, and the one it covers when not told (docs/contract/decisions.md). */
export const MAX_USAGE_DAYS = 93;
export const DEFAULT_USAGE_DAYS = 30;

/** UTC days as `YYYY-MM-DD`, both included; either may be left out. */
export interface UsagePeriodQuery {
  from?: string;
  to?: string;
}

export type UsagePeriod = Required<UsagePeriodQuery>;

/** A period that cannot be read: 400 `validation_failed` naming the parameter; a usage error in the command-line tool. */
export class InvalidUsagePeriodException extends ValidationFailedException {
  constructor(field: keyof UsagePeriodQuery, message: string) {
    super([{ field, message }], message);
  }
}

function day(query: UsagePeriodQuery, field: keyof UsagePeriodQuery): number | undefined {
  const text = query[field];
  if (text === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : Number.NaN;
  // Written back, a day that names no calendar day (`2027-02-30`) comes out as another.
  if (Number.isNaN(ms) || dayText(utcDayOf(ms)) !== text) {
    throw new InvalidUsagePeriodException(field, `${field} must be a UTC day as YYYY-MM-DD (got "${text}")`);
  }
  return utcDayOf(ms);
}

/** The days to read: `to` defaults to today (UTC), `from` to the 30 days that end on `to`. */
export function usagePeriod(query: UsagePeriodQuery, now: Date): UsagePeriod {
  const to = day(query, 'to') ?? utcDayOf(now.getTime());
  const from = day(query, 'from') ?? to - (DEFAULT_USAGE_DAYS - 1);
  if (from > to) throw new InvalidUsagePeriodException('from', `from (${dayText(from)}) must not be after to (${dayText(to)})`);
  if (to - from + 1 > MAX_USAGE_DAYS) {
    throw new InvalidUsagePeriodException(
      'from',
      `from ${dayText(from)} to ${dayText(to)} is ${to - from + 1} days; at most ${MAX_USAGE_DAYS} are read at once`,
    );
  }
  return { from: dayText(from), to: dayText(to) };
}
