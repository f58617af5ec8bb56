import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';

/** The node-postgres pool behind TypeORM. */
type PgPool = { totalCount: number; idleCount: number; waitingCount: number; options: { max: number } };

@Injectable()
export class DatabaseMetrics {
  constructor(registry: Registry, @InjectDataSource() dataSource: DataSource) {
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections: total open, idle, requests waiting for one, and the maximum.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const pool = (dataSource.driver as unknown as { master: PgPool }).master;
        const stats = { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max };
        for (const [state, value] of Object.entries(stats)) this.set({ state }, value);
      },
    });
  }
}
