import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

export const IDEMPOTENT = Symbol('idempotent');

export interface IdempotentOptions {
  /** The response holds a secret (a new API key): it is stored sealed under the caller's API key, which alone replays it. */
  sealed?: boolean;
}

/** Makes a creation safe to retry with `Idempotency-Key` (the pipeline's interceptor acts on it), and documents the header. */
export const Idempotent = ({ sealed = false }: IdempotentOptions = {}) =>
  applyDecorators(
    SetMetadata(IDEMPOTENT, { sealed }),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description: sealed
        ? 'Makes a retried creation safe; the first response is replayed for 24 hours, to the API key that sent it only.'
        : 'Makes a retried creation safe; the first response is replayed for 24 hours.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
    }),
  );
