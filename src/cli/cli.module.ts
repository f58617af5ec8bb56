import { Module, type DynamicModule } from '@nestjs/common';
import { serverParts } from '../app.module.js';
import { AdminTokensModule } from '../modules/admin/index.js';
import { AuditModule } from '../modules/audit/index.js';
import { AuthModule } from '../modules/auth/index.js';
import { AppPartsModule, ClockModule, RequestContextModule } from '../common/index.js';
import { appConfigModule } from '../platform/config/index.js';
import { DatabaseModule } from '../platform/database/index.js';
import { PlansModule } from '../modules/plans/index.js';
import { UsageRecordsModule } from '../modules/usage/index.js';
import { CliCommandsService } from './cli-commands.service.js';

/**
 * The operator tool's application context: the server's services and database, without HTTP. It
 * knows the server's parts (every module's scopes and audit actions) and checks the same variables.
 */
@Module({})
export class CliModule {
  static register(): DynamicModule {
    const parts = serverParts();
    return {
      module: CliModule,
      imports: [
        appConfigModule(parts.config),
        AppPartsModule.forRoot(parts),
        RequestContextModule,
        ClockModule,
        DatabaseModule,
        PlansModule,
        AuthModule,
        AuditModule,
        UsageRecordsModule,
        AdminTokensModule,
      ],
      providers: [CliCommandsService],
    };
  }
}
