import { Global, Injectable, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { DataSource } from 'typeorm';
import { metricsRegistry } from './exposition.js';
import { HttpMetrics } from './http.metrics.js';
import { MetricsController } from './metrics.controller.js';

/** The node-postgres pool behind TypeORM. */
type PgPool = { totalCount: number; idleCount: number; waitingCount: number; options: { max: number } };

@Injectable()
class DatabaseMetrics {
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

/** Prometheus metrics at `/metrics`, on one registry per application (not prom-client's global one) that modules add to. */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [
    {
      provide: Registry,
      useFactory: () => {
        const registry = metricsRegistry();
        collectDefaultMetrics({ register: registry });
        return registry;
      },
    },
    HttpMetrics,
    DatabaseMetrics,
  ],
  exports: [Registry, HttpMetrics],
})
export class MetricsModule {}
