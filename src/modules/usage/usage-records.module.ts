import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlansModule } from '../plans/index.js';
import { UsageDay } from './entities/usage-day.entity.js';
import { UsageDaysRepository } from './usage-days.repository.js';
import { UsageService } from './usage.service.js';
import { ModuleParts } from '../../common/index.js';
import { usageConfig } from './usage.config.js';
import { UsageDays1797984000000 } from './migrations/1797984000000-usage-days.js';

/** The recorded usage and its reading, without the meter: what the command-line tool and the admin API need. */
@ModuleParts({ config: [usageConfig], migrations: [UsageDays1797984000000] })
@Module({
  imports: [TypeOrmModule.forFeature([UsageDay]), PlansModule],
  providers: [UsageDaysRepository, UsageService],
  exports: [UsageDaysRepository, UsageService],
})
export class UsageRecordsModule {}
