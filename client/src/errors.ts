import type { ErrorDetail } from './contract.js';

/** Every error the library throws: the API's answer (ApiError) or the lack of one (ConnectionError). */
export class PetsClientError extends Error {
  /** Named after its class, so a log says `NotFoundError: …`. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** No HTTP answer: the connection failed or was cut. Retried like a 5xx. */
export class ConnectionError extends PetsClientError {}

/** No whole answer within `timeoutMs`. */
export class TimeoutError extends ConnectionError {}

export interface ApiErrorFields {
  status: number;
  code: string;
  message: string;
  requestId?: string;
  details?: ErrorDetail[];
  retryAfterSeconds?: number;
}

/**
 * An answer that is not a success: the API's Error object (`code`, `message`, `status`, `details`),
 * or, when a proxy answered with something else, the code `unexpected_response`. The subclasses
 * follow the HTTP status, the contract's stable axis: a code added later still lands in its class.
 */
export class ApiError extends PetsClientError {
  readonly status: number;
  /** Branch on this, not on the message: `not_found`, `validation_failed`, … (docs/api.md, "Errors"). */
  readonly code: string;
  /** The `X-Request-Id` of the answer: quote it when you ask for help. */
  readonly requestId?: string;
  /** Which values were invalid (`validation_failed`). */
  readonly details?: ErrorDetail[];
  /** The answer's `Retry-After`, in seconds. */
  readonly retryAfterSeconds?: number;

  constructor(fields: ApiErrorFields) {
    super(fields.message);
    this.status = fields.status;
    this.code = fields.code;
    this.requestId = fields.requestId;
    this.details = fields.details;
    this.retryAfterSeconds = fields.retryAfterSeconds;
  }
}

/** 400: `validation_failed` (see `details`) or `malformed_json`. */
export class BadRequestError extends ApiError {}

/** 401: `missing_api_key` or `invalid_api_key` (unknown, revoked, or expired: the message says `expired`). */
export class AuthenticationError extends ApiError {}

/** 403 `insufficient_scope`: the key lacks the operation's scope. */
export class PermissionDeniedError extends ApiError {}

/** 404 `not_found`. */
export class NotFoundError extends ApiError {}

/** 409: `key_limit_reached`, or `idempotency_conflict` still there after the retries. */
export class ConflictError extends ApiError {}

/** 410 `endpoint_removed`: the operation is past its sunset. */
export class GoneError extends ApiError {}

/** 422 `idempotency_key_reused`: the Idempotency-Key was used with another body or by another API key. */
export class UnprocessableEntityError extends ApiError {}

/** Which quota refused: the minute or the day window, or the key's suspension. */
export type RefusedBy = 'minute' | 'day' | 'suspended';

/**
 * 429: over the quota (`rate_limit_exceeded`) or suspended (`api_key_suspended`). Raised when the
 * retries could not help: the day window or a suspension, which last longer than any wait, or a
 * minute still full after them.
 */
export class RateLimitError extends ApiError {
  declare readonly retryAfterSeconds: number;
  readonly window: RefusedBy;
  /** When the refusing window (or the suspension) ends. */
  readonly resetAt: Date;

  constructor(fields: ApiErrorFields & { retryAfterSeconds: number }, window: RefusedBy, resetAt: Date) {
    const until = window === 'suspended' ? 'suspended until' : `the ${window} window resets at`;
    super({ ...fields, message: `${fields.message} (${until} ${resetAt.toISOString()})` });
    this.window = window;
    this.resetAt = resetAt;
  }
}

/** 5xx: `internal_error`, `service_unavailable`, or a proxy's own answer. Retried, except 501. */
export class InternalServerError extends ApiError {}
