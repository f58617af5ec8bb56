import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DiscoveryModule } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { AuthModule } from '../../modules/auth/index.js';
import { Clock, ModuleParts } from '../../common/index.js';
import { rateLimitConfig, type RateLimitConfig } from './rate-limit.config.js';
import { PlansModule } from '../../modules/plans/index.js';
import { ReadCacheModule } from '../read-cache/index.js';
import { REDIS_CLIENT, type RedisClient } from '../../platform/redis/index.js';
import { FailoverStore } from './failover.store.js';
import { DEFAULT_CLIENT_CAPACITY, InProcessStore } from './in-process.store.js';
import { LimiterStore } from './limiter.store.js';
import { RateLimitHealthIndicator } from './rate-limit.health.js';
import { RateLimitMetrics } from './rate-limit.metrics.js';
import { RateLimitMiddleware } from './rate-limit.middleware.js';
import { RateLimitOpenApi } from './rate-limit.openapi.js';
import { RateLimiterService } from './rate-limiter.service.js';
import { RedisStore } from './redis.store.js';
import { UncountedRoutes } from './uncounted-routes.js';
import { QUOTA_ERRORS } from './rate-limit.exceptions.js';

/** With Redis configured: Redis, falling back to in-process while it is out. Without: in-process. */
function createLimiterStore(redis: RedisClient | undefined, clock: Clock, config: ConfigService): LimiterStore {
  const { inProcessAddresses } = config.getOrThrow<RateLimitConfig>('rateLimit');
  const inProcess = new InProcessStore(clock, { clients: DEFAULT_CLIENT_CAPACITY, addresses: inProcessAddresses });
  return redis ? new FailoverStore(new RedisStore(redis), inProcess, redis) : inProcess;
}

@ModuleParts({ config: [rateLimitConfig], errors: QUOTA_ERRORS })
@Module({
  imports: [AuthModule, PlansModule, ReadCacheModule, TerminusModule, DiscoveryModule],
  providers: [
    { provide: LimiterStore, inject: [REDIS_CLIENT, Clock, ConfigService], useFactory: createLimiterStore },
    RateLimiterService,
    RateLimitMetrics,
    RateLimitMiddleware,
    RateLimitHealthIndicator,
    RateLimitOpenApi,
    UncountedRoutes,
  ],
  exports: [RateLimitMiddleware, RateLimiterService],
})
export class RateLimitModule {}
