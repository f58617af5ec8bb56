import { applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiHeader } from '@nestjs/swagger';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** `sealed`: the response holds a secret (a new API key), stored sealed under the caller's API key, which alone replays it. */
export const IdempotentRoute = Reflector.createDecorator<{ sealed: boolean }>();

/** Makes a creation safe to retry with `Idempotency-Key` (the pipeline's interceptor acts on it), and documents the header. */
export const Idempotent = ({ sealed = false } = {}) =>
  applyDecorators(
    IdempotentRoute({ sealed }),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description: sealed
        ? 'Makes a retried creation safe; the first response is replayed for 24 hours, to the API key that sent it only.'
        : 'Makes a retried creation safe; the first response is replayed for 24 hours.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
    }),
  );
