import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { AuthModule } from './auth/auth.module.js';
import { ClockModule } from './common/clock/clock.module.js';
import { ApiExceptionFilter } from './common/errors/api-exception.filter.js';
import { UnmatchedRequestHandler } from './common/http/unmatched-request.handler.js';
import { AppValidationPipe } from './common/validation/app-validation.pipe.js';
import { AppConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { HealthModule } from './health/health.module.js';
import { LoggingModule } from './logging/logging.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { PetsModule } from './pets/pets.module.js';
import { PlansModule } from './plans/plans.module.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { RedisModule } from './redis/redis.module.js';

@Module({
  imports: [
    AppConfigModule,
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
  ],
  providers: [
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
    { provide: APP_PIPE, useClass: AppValidationPipe },
    UnmatchedRequestHandler,
  ],
})
export class AppModule {}
