import { HttpStatus } from '@nestjs/common';
import { ApiException, ErrorCode, ValidationFailedException } from '../common/index.js';

export class IdempotencyConflictException extends ApiException {
  constructor() {
    super(
      ErrorCode.IdempotencyConflict,
      HttpStatus.CONFLICT,
      'A request with this Idempotency-Key is still being processed; retry shortly.',
    );
  }
}

export class IdempotencyKeyReusedException extends ApiException {
  constructor() {
    super(
      ErrorCode.IdempotencyKeyReused,
      HttpStatus.UNPROCESSABLE_ENTITY,
      'This Idempotency-Key was used with a different body; use a new key for a different request.',
    );
  }
}

export function invalidIdempotencyKey(): ValidationFailedException {
  return ValidationFailedException.forField('Idempotency-Key', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
}
