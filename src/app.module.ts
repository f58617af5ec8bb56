import { Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { AppPartsModule, ClockModule, gatherParts, KERNEL_ERRORS, RequestContextModule, type AppModuleImport } from './common/index.js';
import { AuditModule } from './modules/audit/index.js';
import { AdminTokensModule } from './modules/admin/index.js';
import { AuthModule } from './modules/auth/index.js';
import { ConsoleModule } from './modules/console/index.js';
import { KeysModule } from './modules/keys/index.js';
import { PetsModule } from './modules/pets/index.js';
import { PlansModule } from './modules/plans/index.js';
import { UsageModule } from './modules/usage/index.js';
import { WebhooksModule } from './modules/webhooks/index.js';
import { appConfig, appConfigModule } from './platform/config/index.js';
import { DatabaseModule } from './platform/database/index.js';
import { HealthModule } from './platform/health/index.js';
import { LoggingModule } from './platform/logging/index.js';
import { MetricsModule } from './platform/metrics/index.js';
import { RedisModule } from './platform/redis/index.js';
import { TracingModule } from './platform/tracing/index.js';
import { IdempotencyModule } from './policies/idempotency/index.js';
import { RateLimitModule } from './policies/rate-limit/index.js';
import { ReadCacheModule } from './policies/read-cache/index.js';

/** The modules of the service: platform, request policies, product. A team's module is one more line. */
const MODULES: AppModuleImport[] = [
  LoggingModule,
  MetricsModule,
  TracingModule,
  RequestContextModule,
  ClockModule,
  // Modules publish their changes in the change's transaction (`emitAsync`); others listen with `@OnEvent`.
  EventEmitterModule.forRoot(),
  DatabaseModule,
  RedisModule,
  HealthModule,
  // With it, the OpenAPI document builder finds the modules' `@OpenApiContributor()` providers.
  DiscoveryModule,
  AuditModule,
  PlansModule,
  AuthModule,
  ReadCacheModule,
  RateLimitModule,
  IdempotencyModule,
  PetsModule,
  KeysModule,
  UsageModule,
  WebhooksModule,
  ConsoleModule,
  // The admin tokens' table and service; the admin API is an application of its own on these modules (server.ts).
  AdminTokensModule,
];

/** The server's parts: its modules' (and `extra` ones'), its own configuration and the kernel's errors. */
export const serverParts = (extra: AppModuleImport[] = []) =>
  gatherParts([...MODULES, ...extra], { config: [appConfig], errors: KERNEL_ERRORS });

/** The modules, plus `extra` ones (a test's fixtures), with the parts they declare. The request pipeline is in app.pipeline.ts. */
@Module({})
export class AppModule {
  static register(extra: AppModuleImport[] = []): DynamicModule {
    const parts = serverParts(extra);
    return {
      module: AppModule,
      imports: [appConfigModule(parts.config), AppPartsModule.forRoot(parts), ...MODULES, ...extra],
    };
  }
}
