import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

export const IDEMPOTENT = Symbol('idempotent');

/** Makes a creation safe to retry with `Idempotency-Key` (the pipeline's interceptor acts on it), and documents the header. */
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
