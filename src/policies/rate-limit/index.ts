export { RateLimitExceededException, V1_OPERATION_ERRORS } from './rate-limit.exceptions.js';
export { RateLimitModule } from './rate-limit.module.js';
export { RateLimiterService, type KeyDecision, type KeyDecisionListener } from './rate-limiter.service.js';
export { RATE_LIMIT_HEADER_NAMES } from './rate-limit.openapi.js';
export { RateLimitMiddleware } from './rate-limit.middleware.js';
export { UncountedRead } from './uncounted-routes.js';
