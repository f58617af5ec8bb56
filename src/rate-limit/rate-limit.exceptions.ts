import { HttpStatus } from '@nestjs/common';
import { ApiException, ErrorCode } from '../common/index.js';

export class RateLimitExceededException extends ApiException {
  constructor(retryAfterSeconds: number) {
    super(
      ErrorCode.RateLimitExceeded,
      HttpStatus.TOO_MANY_REQUESTS,
      `Rate limit exceeded; retry after ${retryAfterSeconds} s, then back off exponentially if refused again.`,
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

export class ApiKeySuspendedException extends ApiException {
  constructor(retryAfterSeconds: number) {
    super(
      ErrorCode.ApiKeySuspended,
      HttpStatus.TOO_MANY_REQUESTS,
      `This API key kept sending while refused and is suspended for ${retryAfterSeconds} more s.`,
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}
