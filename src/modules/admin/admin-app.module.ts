import { Module, type DynamicModule, type INestApplicationContext, type InjectionToken, type Type } from '@nestjs/common';
import { PARAMTYPES_METADATA, SELF_DECLARED_DEPS_METADATA } from '@nestjs/common/constants.js';
import { ConfigService } from '@nestjs/config';
import { AppParts } from '../../common/index.js';
import { ShutdownModule } from '../../platform/health/index.js';
import { HTTP_LOGGER } from '../../platform/logging/index.js';
import { HttpMetrics } from '../../platform/metrics/index.js';
import { AdminAuditController } from './admin-audit.controller.js';
import { AdminAuthentication } from './admin-authentication.middleware.js';
import { AdminClientsController } from './admin-clients.controller.js';
import { AdminKeysController } from './admin-keys.controller.js';

/** What the admin application's pipeline reads itself: the configuration, the parts, the request log and the metrics. */
const PIPELINE = [ConfigService, AppParts, HTTP_LOGGER, HttpMetrics];

/** What a class injects: its constructor's parameter types, or the tokens `@Inject()` names instead. */
function injectedBy(type: Type): InjectionToken[] {
  const tokens = [...((Reflect.getMetadata(PARAMTYPES_METADATA, type) as InjectionToken[] | undefined) ?? [])];
  const named =
    (Reflect.getMetadata(SELF_DECLARED_DEPS_METADATA, type) as Array<{ index: number; param: InjectionToken }> | undefined) ?? [];
  for (const { index, param } of named) tokens[index] = param;
  return tokens;
}

/**
 * The admin API's own application (docs/contract/decisions.md, "Administration"): its controllers and those the modules
 * declare (`@ModuleParts({ adminControllers })`), and its guard, on the services of `services`. What they inject is
 * borrowed from the server, which creates and stops it: one pool, Redis client, log, registry, and the same caches.
 */
@Module({})
export class AdminAppModule {
  static register(services: INestApplicationContext): DynamicModule {
    const controllers = [AdminClientsController, AdminKeysController, AdminAuditController, ...services.get(AppParts).adminControllers];
    const borrowed = [...new Set([...PIPELINE, ...[AdminAuthentication, ...controllers].flatMap(injectedBy)])];
    return {
      module: AdminAppModule,
      global: true,
      imports: [ShutdownModule],
      controllers,
      providers: [...borrowed.map((token) => ({ provide: token, useValue: services.get<unknown, unknown>(token) })), AdminAuthentication],
      exports: borrowed,
    };
  }
}
