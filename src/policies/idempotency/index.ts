export { IDEMPOTENCY_KEY_HEADER, Idempotent } from './idempotent.decorator.js';
export { IDEMPOTENT_BODY_ERRORS, IdempotencyConflictException, IdempotencyKeyReusedException } from './idempotency.exceptions.js';
export { IdempotencyInterceptor } from './idempotency.interceptor.js';
export { IdempotencyModule } from './idempotency.module.js';
