import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

@Injectable()
export class UsageMetrics {
  readonly flushes: Counter<'outcome'>;
  readonly rows: Counter;

  constructor(registry: Registry) {
    this.flushes = new Counter({
      name: 'usage_flush_statements_total',
      help: 'Statements that wrote usage counts to the database, by outcome (written or failed, kept for the next flush).',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.rows = new Counter({
      name: 'usage_flush_rows_total',
      help: 'Rows of usage_days (client, key, UTC day) written by flushes.',
      registers: [registry],
    });
  }
}
