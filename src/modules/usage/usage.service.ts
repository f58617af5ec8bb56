import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/index.js';
import { ClientsService } from '../plans/index.js';
import type { UsageDay } from './entities/usage-day.entity.js';
import { UsageDaysRepository } from './usage-days.repository.js';
import { InvalidUsagePeriodException, usagePeriod, type UsagePeriod, type UsagePeriodQuery } from './usage-period.js';

/** Rows one reading returns at most: the period's days times a client's keys, far beyond what a client uses. */
export const MAX_USAGE_ROWS = 10_000;

/** A client's usage in a period: per UTC day and key (days and keys without requests left out), and the sums. */
export interface ClientUsage extends UsagePeriod {
  days: Omit<UsageDay, 'clientId'>[];
  totals: Pick<UsageDay, 'admitted' | 'refused'>;
}

/** The one reading of usage, for the client itself (`GET /v1/usage`), operators' API and the command-line tool. */
@Injectable()
export class UsageService {
  constructor(
    private readonly days: UsageDaysRepository,
    private readonly clients: ClientsService,
    private readonly clock: Clock,
  ) {}

  /** Throws ClientNotFoundError for an unknown client, InvalidUsagePeriodException for a period it cannot read. */
  async forClient(clientId: number, query: UsagePeriodQuery = {}): Promise<ClientUsage> {
    const period = usagePeriod(query, this.clock.now());
    await this.clients.get(clientId);
    const rows = await this.days.findForClient(clientId, period, MAX_USAGE_ROWS + 1);
    if (rows.length > MAX_USAGE_ROWS) {
      throw new InvalidUsagePeriodException(
        'from',
        `the period holds more than ${MAX_USAGE_ROWS} rows of usage (days times keys); ask for fewer days`,
      );
    }
    const sum = (count: 'admitted' | 'refused') => rows.reduce((total, row) => total + row[count], 0);
    const totals = { admitted: sum('admitted'), refused: sum('refused') };
    return { ...period, days: rows.map(({ day, keyId, admitted, refused }) => ({ day, keyId, admitted, refused })), totals };
  }
}
