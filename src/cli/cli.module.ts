import { Module } from '@nestjs/common';
import { AdminTokensModule } from '../modules/admin/index.js';
import { AuditModule } from '../modules/audit/index.js';
import { AuthModule } from '../modules/auth/index.js';
import { ClockModule } from '../common/index.js';
import { appConfigModule } from '../platform/config/index.js';
import { DatabaseModule } from '../platform/database/index.js';
import { PlansModule } from '../modules/plans/index.js';
import { UsageRecordsModule } from '../modules/usage/index.js';
import { CliCommandsService } from './cli-commands.service.js';

/** The operator tool's application context: the server's modules and database, without HTTP. */
@Module({
  imports: [appConfigModule(), ClockModule, DatabaseModule, PlansModule, AuthModule, AuditModule, UsageRecordsModule, AdminTokensModule],
  providers: [CliCommandsService],
})
export class CliModule {}
