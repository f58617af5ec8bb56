/** Idempotent creation: the decorator a creation route carries, the pipeline's interceptor, its errors. */
export { IDEMPOTENCY_KEY_HEADER, Idempotent } from './idempotent.decorator.js';
export { IdempotencyConflictException, IdempotencyKeyReusedException } from './idempotency.exceptions.js';
export { IdempotencyInterceptor } from './idempotency.interceptor.js';
export { IdempotencyModule } from './idempotency.module.js';
