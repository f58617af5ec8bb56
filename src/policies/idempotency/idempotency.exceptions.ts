import { HttpStatus } from '@nestjs/common';
import { ApiError, ApiException, PayloadTooLargeException, UnsupportedMediaTypeException } from '../../common/index.js';
import { IDEMPOTENCY_KEY_HEADER } from './idempotent.decorator.js';

@ApiError({
  status: HttpStatus.CONFLICT,
  code: 'idempotency_conflict',
  description: `The same ${IDEMPOTENCY_KEY_HEADER} is still being processed`,
})
export class IdempotencyConflictException extends ApiException {
  constructor() {
    super(`A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed; retry shortly.`);
  }
}

@ApiError({
  status: HttpStatus.UNPROCESSABLE_ENTITY,
  code: 'idempotency_key_reused',
  description: `The ${IDEMPOTENCY_KEY_HEADER} was used with a different body, or by another API key`,
})
export class IdempotencyKeyReusedException extends ApiException {
  constructor(reusedWith: 'a different body' | 'another api key' = 'a different body') {
    super(
      reusedWith === 'a different body'
        ? `This ${IDEMPOTENCY_KEY_HEADER} was used with a different body; use a new key for a different request.`
        : `This ${IDEMPOTENCY_KEY_HEADER} was used with another API key, and only that key can replay its response; use a new key.`,
    );
  }
}

/** What an idempotent write may answer about its body and its `Idempotency-Key`. */
export const IDEMPOTENT_BODY_ERRORS = [
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
  IdempotencyConflictException,
  IdempotencyKeyReusedException,
];
