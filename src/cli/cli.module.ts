import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ClockModule } from '../common/clock/clock.module.js';
import { AppConfigModule } from '../config/config.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { PlansModule } from '../plans/plans.module.js';
import { CliCommandsService } from './cli-commands.service.js';

/** The operator tool's application context: the server's modules and database, without HTTP. */
@Module({
  imports: [AppConfigModule, ClockModule, DatabaseModule, PlansModule, AuthModule],
  providers: [CliCommandsService],
})
export class CliModule {}
