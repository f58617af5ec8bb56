/** Idempotent creation: the interceptor a creation route applies, its header and its errors. */
export { ApiIdempotencyKeyHeader, IDEMPOTENCY_KEY_HEADER } from './idempotency-key.header.js';
export { IdempotencyConflictException, IdempotencyKeyReusedException } from './idempotency.exceptions.js';
export { IdempotencyInterceptor } from './idempotency.interceptor.js';
export { IdempotencyModule } from './idempotency.module.js';
