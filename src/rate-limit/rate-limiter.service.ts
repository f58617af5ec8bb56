import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request } from 'express';
import { RequestAuthenticator } from '../auth/request-authenticator.js';
import type { RateLimitConfig } from '../config/rate-limit.config.js';
import type { RedisConfig } from '../config/redis.config.js';
import { ClientsService } from '../plans/clients.service.js';
import { isPlanName, type PlanLimits } from '../plans/plan-catalogue.js';
import { PlansService } from '../plans/plans.service.js';
import { LimiterStore, type BanPolicy, type LimiterRequest } from './limiter.script.js';
import { decide, type RateLimitDecision } from './rate-limit.decision.js';
import { RateLimitMetrics } from './rate-limit.metrics.js';

/**
 * Decides each `/v1` request against its caller's quota: a valid key's client (all its keys
 * share the counts), otherwise the client IP with the anonymous plan's limits. Limits come
 * only from the Plans module.
 */
@Injectable()
export class RateLimiterService {
  private readonly keyPrefix: string;
  private readonly anonymousLimits: PlanLimits;
  private readonly ban: BanPolicy;

  constructor(
    private readonly store: LimiterStore,
    private readonly authenticator: RequestAuthenticator,
    private readonly clients: ClientsService,
    private readonly metrics: RateLimitMetrics,
    plans: PlansService,
    config: ConfigService,
  ) {
    const rateLimit = config.getOrThrow<RateLimitConfig>('rateLimit');
    this.keyPrefix = `${config.getOrThrow<RedisConfig>('redis').keyPrefix}rl:`;
    this.anonymousLimits = plans.limitsOfPlan(isPlanName(rateLimit.anonymousPlan) ? rateLimit.anonymousPlan : 'free');
    this.ban = { threshold: rateLimit.banThreshold, durationMs: rateLimit.banSeconds * 1000 };
  }

  async check(request: Request): Promise<RateLimitDecision> {
    const { plan, ...limiterRequest } = await this.limiterRequestFor(request);
    const facts = await this.store.consume(limiterRequest);
    this.metrics.record(plan, facts.outcome);
    return decide(facts, limiterRequest.limits);
  }

  private async limiterRequestFor(request: Request): Promise<LimiterRequest & { plan: string }> {
    try {
      const identity = await this.authenticator.identify(request);
      if (identity.kind === 'valid') {
        const { clientId, keyId } = identity.principal;
        const { plan, limits } = await this.clients.quotaOf(clientId);
        return { plan, subjectKey: `${this.keyPrefix}{c:${clientId}}`, keyId, limits, ban: this.ban };
      }
    } catch {
      // The database cannot say who this is: limit by address; the guard then reports the outage.
    }
    return { plan: 'anonymous', subjectKey: `${this.keyPrefix}{ip:${request.ip}}`, limits: this.anonymousLimits, ban: this.ban };
  }
}
