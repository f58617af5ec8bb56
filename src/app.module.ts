import { Module, type DynamicModule, type ForwardReference, type Type } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { AuthModule } from './modules/auth/index.js';
import { ApiExceptionFilter, AppValidationPipe, ClockModule, UnmatchedRequestHandler } from './common/index.js';
import { appConfigModule } from './platform/config/index.js';
import { DatabaseModule } from './platform/database/index.js';
import { HealthModule } from './platform/health/index.js';
import { LoggingModule } from './platform/logging/index.js';
import { MetricsModule } from './platform/metrics/index.js';
import { OpenApiModule } from './platform/openapi/index.js';
import { PetsModule } from './modules/pets/index.js';
import { PlansModule } from './modules/plans/index.js';
import { RateLimitModule } from './policies/rate-limit/index.js';
import { RedisModule } from './platform/redis/index.js';

/** A module the application is composed of. */
export type AppModuleImport = Type | DynamicModule | Promise<DynamicModule> | ForwardReference;

/** The modules of the service, in the order Nest initialises them. */
const MODULES: AppModuleImport[] = [
  LoggingModule,
  MetricsModule,
  ClockModule,
  DatabaseModule,
  RedisModule,
  PlansModule,
  AuthModule,
  RateLimitModule,
  PetsModule,
  HealthModule,
  OpenApiModule,
];

/**
 * The application: the configuration of every module loaded, the modules, and the global
 * filter and pipe. `register(extra)` adds modules (the server's development-key seeding, a test's
 * fixture module); the configuration module is built here, after every module's file has loaded
 * and defined its configuration namespace.
 */
@Module({})
export class AppModule {
  static register(extra: AppModuleImport[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [appConfigModule(), ...MODULES, ...extra],
      providers: [
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: APP_PIPE, useClass: AppValidationPipe },
        UnmatchedRequestHandler,
      ],
    };
  }
}
