import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ApiKeySuspendedException, RateLimitExceededException } from './rate-limit.exceptions.js';
import { RateLimiterService } from './rate-limiter.service.js';
import { UncountedRoutes } from './uncounted-routes.js';

/** First on every `/v1` request, so every response carries the quota headers and a caller over quota gets 429 whatever it sent. */
@Injectable()
export class RateLimitMiddleware implements NestMiddleware {
  constructor(
    private readonly limiter: RateLimiterService,
    private readonly uncounted: UncountedRoutes,
  ) {}

  async use(request: Request, response: Response, next: NextFunction): Promise<void> {
    const decision = await this.limiter.check(request, this.uncounted.matches(request) ? 'peek' : 'consume');
    response.set(decision.headers);
    if (decision.outcome === 'refused') throw new RateLimitExceededException(decision.retryAfterSeconds!);
    if (decision.outcome === 'suspended') throw new ApiKeySuspendedException(decision.retryAfterSeconds!);
    next();
  }
}
