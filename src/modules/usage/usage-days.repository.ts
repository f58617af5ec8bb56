import { Injectable } from '@nestjs/common';
import { Between, LessThan } from 'typeorm';
import { TransactionHost } from '../../platform/database/index.js';
import { UsageDay } from './entities/usage-day.entity.js';
import type { UsagePeriod } from './usage-period.js';

@Injectable()
export class UsageDaysRepository {
  constructor(private readonly txHost: TransactionHost) {}

  private get days() {
    return this.txHost.tx.getRepository(UsageDay);
  }

  /**
   * Adds the counts to their rows, creating those missing, in one statement (TypeORM's upsert can only
   * overwrite a column). In primary-key order, so two replicas lock shared rows in the same order and cannot deadlock.
   */
  async add(rows: readonly UsageDay[]): Promise<void> {
    if (rows.length === 0) return;
    const sorted = [...rows].sort(byPrimaryKey);
    const values = sorted.map((_, i) => `(${[1, 2, 3, 4, 5].map((n) => `$${5 * i + n}`).join(', ')})`);
    await this.txHost.tx.query(
      `INSERT INTO usage_days (client_id, day, key_id, admitted, refused) VALUES ${values.join(', ')} ` +
        'ON CONFLICT (client_id, day, key_id) DO UPDATE SET ' +
        'admitted = usage_days.admitted + excluded.admitted, refused = usage_days.refused + excluded.refused',
      sorted.flatMap(({ clientId, day, keyId, admitted, refused }) => [clientId, day, keyId, admitted, refused]),
    );
  }

  findForClient(clientId: number, { from, to }: UsagePeriod, limit: number): Promise<UsageDay[]> {
    return this.days.find({ where: { clientId, day: Between(from, to) }, order: { day: 'ASC', keyId: 'ASC' }, take: limit });
  }

  async deleteBefore(day: string): Promise<number> {
    return (await this.days.delete({ day: LessThan(day) })).affected ?? 0;
  }
}

function byPrimaryKey(a: UsageDay, b: UsageDay): number {
  return a.clientId - b.clientId || (a.day < b.day ? -1 : a.day > b.day ? 1 : 0) || a.keyId - b.keyId;
}
