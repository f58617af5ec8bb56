import { HttpStatus } from '@nestjs/common';
import { ApiError, ApiException, INVALID_REQUEST_ERRORS, SERVICE_ERRORS } from '../../common/index.js';
import { AUTHENTICATION_ERRORS } from '../../modules/auth/index.js';

const retryAfter = (seconds: number) => ({ headers: { 'Retry-After': String(seconds) } });

@ApiError({ status: HttpStatus.TOO_MANY_REQUESTS, code: 'rate_limit_exceeded', description: "Over the plan's quota" })
export class RateLimitExceededException extends ApiException {
  constructor(retryAfterSeconds: number) {
    super(
      `Rate limit exceeded; retry after ${retryAfterSeconds} s, then back off exponentially if refused again.`,
      retryAfter(retryAfterSeconds),
    );
  }
}

@ApiError({ status: HttpStatus.TOO_MANY_REQUESTS, code: 'api_key_suspended', description: 'suspended' })
export class ApiKeySuspendedException extends ApiException {
  constructor(retryAfterSeconds: number) {
    super(`This API key kept sending while refused and is suspended for ${retryAfterSeconds} more s.`, retryAfter(retryAfterSeconds));
  }
}

/** The errors of every /v1 operation, all of which the limiter counts. */
export const QUOTA_ERRORS = [RateLimitExceededException, ApiKeySuspendedException];

/** What every `/v1` operation may answer, whatever it does: all of it is decided before or around the handler. */
export const V1_OPERATION_ERRORS = [...INVALID_REQUEST_ERRORS, ...AUTHENTICATION_ERRORS, ...QUOTA_ERRORS, ...SERVICE_ERRORS];
