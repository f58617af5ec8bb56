/** Plan quotas: the limiter, the middleware the application mounts before routing, its readiness. */
export { rateLimitConfig, type RateLimitConfig } from './rate-limit.config.js';
export { RateLimitHealthIndicator } from './rate-limit.health.js';
export { RateLimitMiddleware } from './rate-limit.middleware.js';
export { RateLimitModule } from './rate-limit.module.js';
export { RATE_LIMIT_HEADER_NAMES, RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from './rate-limit.openapi.js';
