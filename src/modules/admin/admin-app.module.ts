import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ClsService } from 'nestjs-cls';
import { AppParts, Clock } from '../../common/index.js';
import { AuditService } from '../audit/index.js';
import { ApiKeysService } from '../auth/index.js';
import { ClientsService } from '../plans/index.js';
import { UsageService } from '../usage/index.js';
import { ShutdownModule } from '../../platform/health/index.js';
import { HTTP_LOGGER } from '../../platform/logging/index.js';
import { HttpMetrics } from '../../platform/metrics/index.js';
import { RateLimiterService } from '../../policies/rate-limit/index.js';
import { AdminAuditController } from './admin-audit.controller.js';
import { AdminAuthentication } from './admin-authentication.middleware.js';
import { AdminClientsController } from './admin-clients.controller.js';
import { AdminKeysController } from './admin-keys.controller.js';
import { AdminTokensService } from './admin-tokens.service.js';

/** The server's own instances, which it creates and stops: one pool, Redis client, log, registry, and the same caches. */
const BORROWED = [
  ConfigService,
  AppParts,
  Clock,
  ClsService,
  HTTP_LOGGER,
  HttpMetrics,
  ClientsService,
  ApiKeysService,
  UsageService,
  AuditService,
  AdminTokensService,
  RateLimiterService,
];

/** The admin API's own application (docs/contract/decisions.md, "Administration"): its controllers and guard on the services of `services`. */
@Module({})
export class AdminAppModule {
  static register(services: INestApplicationContext): DynamicModule {
    return {
      module: AdminAppModule,
      global: true,
      imports: [ShutdownModule],
      controllers: [AdminClientsController, AdminKeysController, AdminAuditController],
      providers: [...BORROWED.map((token) => ({ provide: token, useValue: services.get(token) })), AdminAuthentication],
      exports: BORROWED,
    };
  }
}
