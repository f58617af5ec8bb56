import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { allowedHostMiddleware, ApiExceptionFilter, AppValidationPipe, jsonBodyParser } from './common/index.js';
import { ApiKeyGuard } from './modules/auth/index.js';
import type { AppConfig } from './platform/config/index.js';
import { observeRequests } from './platform/http/index.js';
import { IDEMPOTENCY_KEY_HEADER, IdempotencyInterceptor } from './policies/idempotency/index.js';
import { RATE_LIMIT_HEADER_NAMES, RateLimitMiddleware } from './policies/rate-limit/index.js';
import { ReadCacheInterceptor } from './policies/read-cache/index.js';

export const API_PREFIX = 'v1';

/** Every global part of the pipeline, in request order: a module only marks its routes (`@Public()`, `@Idempotent()`, ...). */
export function configurePipeline(app: NestExpressApplication, config: AppConfig): void {
  const v1 = `/${API_PREFIX}`;
  observeRequests(app, 'public');
  if (config.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.corsOrigins,
      allowedHeaders: ['Authorization', 'Content-Type', IDEMPOTENCY_KEY_HEADER, 'X-Request-Id'],
      exposedHeaders: ['Link', 'Location', 'X-Request-Id', 'Deprecation', 'Sunset', ...RATE_LIMIT_HEADER_NAMES],
    });
  }
  // /v1: the quota decision before routing, authentication and body parsing (docs/contract/decisions.md);
  // then the host names links are built from, then the JSON body of whatever route takes the request.
  const rateLimit = app.get(RateLimitMiddleware);
  app.use(v1, (request: Request, response: Response, next: NextFunction) => rateLimit.use(request, response, next));
  app.use(v1, allowedHostMiddleware(config.allowedHosts));
  app.use(v1, jsonBodyParser(config.bodyLimit));
  // The matched route: the API key guard, the read cache, idempotency, validation; errors become the Error object.
  app.useGlobalGuards(app.get(ApiKeyGuard));
  app.useGlobalInterceptors(app.get(ReadCacheInterceptor), app.get(IdempotencyInterceptor));
  app.useGlobalPipes(new AppValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter());
}
