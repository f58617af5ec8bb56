import { Module, type DynamicModule, type ForwardReference, type Type } from '@nestjs/common';
import { ClockModule, UnmatchedRequestHandler } from './common/index.js';
import { AuthModule } from './modules/auth/index.js';
import { PetsModule } from './modules/pets/index.js';
import { PlansModule } from './modules/plans/index.js';
import { appConfigModule, validateServerEnvironment } from './platform/config/index.js';
import { DatabaseModule } from './platform/database/index.js';
import { HealthModule } from './platform/health/index.js';
import { LoggingModule } from './platform/logging/index.js';
import { MetricsModule } from './platform/metrics/index.js';
import { OpenApiModule } from './platform/openapi/index.js';
import { RedisModule } from './platform/redis/index.js';
import { IdempotencyModule } from './policies/idempotency/index.js';
import { RateLimitModule } from './policies/rate-limit/index.js';
import { ReadCacheModule } from './policies/read-cache/index.js';

/** A module the application is composed of. */
export type AppModuleImport = Type | DynamicModule | Promise<DynamicModule> | ForwardReference;

/** The modules of the service: platform, request policies, product. A team's module is one more line. */
const MODULES: AppModuleImport[] = [
  LoggingModule,
  MetricsModule,
  ClockModule,
  DatabaseModule,
  RedisModule,
  HealthModule,
  OpenApiModule,
  PlansModule,
  AuthModule,
  ReadCacheModule,
  RateLimitModule,
  IdempotencyModule,
  PetsModule,
];

/**
 * The application: the configuration of every module loaded, and the modules. `register(extra)`
 * adds modules (the server's development-key seeding, a test's fixture module); the configuration
 * module is built here, after every module's file has loaded and defined its namespace. The
 * request pipeline is in app.pipeline.ts.
 */
@Module({})
export class AppModule {
  static register(extra: AppModuleImport[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [appConfigModule(validateServerEnvironment), ...MODULES, ...extra],
      providers: [UnmatchedRequestHandler],
    };
  }
}
