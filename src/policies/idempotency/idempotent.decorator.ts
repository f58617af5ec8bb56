import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

/** The request header that makes a creation safe to retry. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

export const IDEMPOTENT = Symbol('idempotent');

/**
 * Makes a creation safe to retry with `Idempotency-Key` (the idempotency interceptor of the
 * pipeline acts on operations marked so), and documents the header.
 */
export const Idempotent = () =>
  applyDecorators(
    SetMetadata(IDEMPOTENT, true),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description: 'Makes a retried creation safe; the first response is replayed for 24 hours.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
    }),
  );
