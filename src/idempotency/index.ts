export { IdempotencyInterceptor } from './idempotency.interceptor.js';
export { IdempotencyModule } from './idempotency.module.js';
