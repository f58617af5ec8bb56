import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/index.js';
import { AuthModule } from '../auth/index.js';
import { PlansModule } from '../plans/index.js';
import { UsageRecordsModule } from '../usage/index.js';
import { HealthModule } from '../../platform/health/index.js';
import { OwnOpenApiDocument } from '../../platform/openapi/index.js';
import { RateLimitModule } from '../../policies/rate-limit/index.js';
import { AdminAuthentication } from './admin-authentication.middleware.js';
import { AdminAuditController } from './admin-audit.controller.js';
import { AdminClientsController } from './admin-clients.controller.js';
import { AdminKeysController } from './admin-keys.controller.js';
import { AdminListener } from './admin-listener.js';
import { AdminTokensModule } from './admin-tokens.module.js';
import { AdminUsageController } from './admin-usage.controller.js';

/** The admin API on its own listener (docs/contract/decisions.md, "Administration"), with a document of its own. */
@OwnOpenApiDocument()
@Module({
  imports: [AdminTokensModule, PlansModule, AuthModule, AuditModule, UsageRecordsModule, RateLimitModule, HealthModule],
  controllers: [AdminClientsController, AdminKeysController, AdminUsageController, AdminAuditController],
  providers: [AdminListener, AdminAuthentication],
  exports: [AdminListener, AdminAuthentication],
})
export class AdminModule {}
