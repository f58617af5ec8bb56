/** The catalogue of machine-readable error codes (docs/contract/decisions.md, "Errors"). */
export const ErrorCode = {
  ValidationFailed: 'validation_failed',
  MalformedJson: 'malformed_json',
  MissingApiKey: 'missing_api_key',
  InvalidApiKey: 'invalid_api_key',
  NotFound: 'not_found',
  MethodNotAllowed: 'method_not_allowed',
  IdempotencyConflict: 'idempotency_conflict',
  EndpointRemoved: 'endpoint_removed',
  PayloadTooLarge: 'payload_too_large',
  UnsupportedMediaType: 'unsupported_media_type',
  IdempotencyKeyReused: 'idempotency_key_reused',
  HeadersTooLarge: 'headers_too_large',
  RateLimitExceeded: 'rate_limit_exceeded',
  ApiKeySuspended: 'api_key_suspended',
  InternalError: 'internal_error',
  ServiceUnavailable: 'service_unavailable',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
