import { Global, Module } from '@nestjs/common';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { metricsRegistry } from './exposition.js';
import { DatabaseMetrics } from './database.metrics.js';
import { HttpMetrics } from './http.metrics.js';
import { MetricsController } from './metrics.controller.js';

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
