import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorDto } from './error.dto.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid body, query or path value (`validation_failed`, `malformed_json`).',
  401: 'Missing or invalid API key (`missing_api_key`, `invalid_api_key`).',
  404: 'The requested resource could not be found (`not_found`).',
  409: 'The same Idempotency-Key is still being processed (`idempotency_conflict`).',
  410: 'The operation is past its sunset (`endpoint_removed`).',
  413: 'Body over the size limit (`payload_too_large`).',
  415: 'Body is not application/json (`unsupported_media_type`).',
  422: 'The Idempotency-Key was used with a different body (`idempotency_key_reused`).',
  429: "Over the plan's quota (`rate_limit_exceeded`) or suspended (`api_key_suspended`).",
  500: 'Unexpected failure (`internal_error`).',
  503: 'The database cannot be reached (`service_unavailable`).',
};

const HEADERS: Record<number, Record<string, { description: string; schema: object }>> = {
  401: {
    'WWW-Authenticate': {
      description: 'RFC 6750 challenge: `Bearer realm="pets"`.',
      schema: { type: 'string', maxLength: 200, pattern: '^Bearer realm="[^"]*"' },
    },
  },
};

/** Documents error responses of an operation: the Error body, and the headers each status carries. */
export const ApiErrorResponses = (...statuses: number[]) =>
  applyDecorators(
    ApiExtraModels(ErrorDto),
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: DESCRIPTIONS[status],
        headers: HEADERS[status],
        content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorDto) } } },
      }),
    ),
  );
