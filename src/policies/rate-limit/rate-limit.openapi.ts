import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { OpenApiContributor, type OpenApiContribution } from '../../platform/openapi/index.js';

const unixSeconds = { type: 'integer', format: 'int64', minimum: 0, maximum: 9007199254740991 } as const;

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': {
    required: true,
    description: 'The limit of the window closest to exhaustion that applies to the caller (on a 429, the refusing window).',
    schema: unixSeconds,
  },
  'X-RateLimit-Remaining': { required: true, description: 'Requests remaining in that window; never negative.', schema: unixSeconds },
  'X-RateLimit-Reset': { required: true, description: 'Unix time, in seconds, at which that window resets.', schema: unixSeconds },
  'RateLimit-Policy': {
    required: true,
    description: 'IETF RateLimit fields draft: both windows, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`.',
    schema: { type: 'string', maxLength: 200, pattern: '^"minute";q=\\d+;w=60, "day";q=\\d+;w=86400$' },
  },
  RateLimit: {
    required: true,
    description: 'IETF RateLimit fields draft: the same window as X-RateLimit-*, e.g. `"minute";r=59;t=42`.',
    schema: { type: 'string', maxLength: 100, pattern: '^"(minute|day)";r=\\d+;t=\\d+$' },
  },
} as const;

const RETRY_AFTER_HEADER = {
  'Retry-After': {
    required: true,
    description: 'Whole seconds until the refusing window ends (or the suspension lifts); wait that long, then back off exponentially.',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 86400 },
  },
} as const;

/** For the CORS exposed headers. */
export const RATE_LIMIT_HEADER_NAMES = Object.keys({ ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER });

const headerRefs = (headers: object) =>
  Object.fromEntries(Object.keys(headers).map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/** The limiter answers every request under /v1: its headers, defined once, go on every response (Retry-After on 429s). */
@OpenApiContributor()
@Injectable()
export class RateLimitOpenApi implements OpenApiContribution {
  contribute(document: OpenAPIObject): void {
    document.components!.headers = { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER };
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations as Record<string, { responses?: Record<string, { headers?: object }> }>)) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          response.headers = {
            ...response.headers,
            ...headerRefs(RATE_LIMIT_HEADERS),
            ...(status === '429' ? headerRefs(RETRY_AFTER_HEADER) : {}),
          };
        }
      }
    }
  }
}
