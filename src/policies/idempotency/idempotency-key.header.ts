import { ApiHeader } from '@nestjs/swagger';

/** The request header that makes a creation safe to retry. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Documents the header on an operation that applies `IdempotencyInterceptor`. */
export const ApiIdempotencyKeyHeader = () =>
  ApiHeader({
    name: IDEMPOTENCY_KEY_HEADER,
    required: false,
    description: 'Makes a retried creation safe; the first response is replayed for 24 hours.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
  });
