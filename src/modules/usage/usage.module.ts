import { Module } from '@nestjs/common';
import { RateLimitModule } from '../../policies/rate-limit/index.js';
import { UsageController } from './usage.controller.js';
import { UsageMeter } from './usage-meter.js';
import { UsageRecordsModule } from './usage-records.module.js';
import { UsageRetention } from './usage-retention.js';
import { UsageOpenApi } from './usage.openapi.js';

/** Usage metering: the limiter's decisions counted per client, key and UTC day, and `GET /v1/usage`. */
@Module({
  imports: [UsageRecordsModule, RateLimitModule],
  controllers: [UsageController],
  providers: [UsageMeter, UsageRetention, UsageOpenApi],
})
export class UsageModule {}
