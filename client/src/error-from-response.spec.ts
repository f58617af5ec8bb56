import { errorFromResponse, UNEXPECTED_RESPONSE } from './error-from-response.js';
import * as errors from './errors.js';

const errorBody = (status: number, code: string, extra: object = {}) =>
  JSON.stringify({ code, message: `${code} happened`, status, ...extra });

describe('errorFromResponse: one class per status, the fields of the Error object', () => {
  it.each([
    [400, 'validation_failed', errors.BadRequestError],
    [401, 'invalid_api_key', errors.AuthenticationError],
    [403, 'insufficient_scope', errors.PermissionDeniedError],
    [404, 'not_found', errors.NotFoundError],
    [409, 'key_limit_reached', errors.ConflictError],
    [410, 'endpoint_removed', errors.GoneError],
    [422, 'idempotency_key_reused', errors.UnprocessableEntityError],
    [500, 'internal_error', errors.InternalServerError],
    [503, 'service_unavailable', errors.InternalServerError],
  ])('%i %s is a %p', (status, code, ErrorClass) => {
    const error = errorFromResponse(status, new Headers({ 'X-Request-Id': 'req-1' }), errorBody(status, code));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(errors.ApiError);
    expect(error).toMatchObject({ name: ErrorClass.name, status, code, message: `${code} happened`, requestId: 'req-1' });
  });

  it('keeps the details of validation_failed', () => {
    const details = [{ field: 'limit', message: 'limit must not be greater than 100' }];
    expect(errorFromResponse(400, new Headers(), errorBody(400, 'validation_failed', { details })).details).toEqual(details);
  });

  it('gives a status it does not know an ApiError, and one from 500 on an InternalServerError, with the code as sent', () => {
    const legal = errorFromResponse(451, new Headers(), errorBody(451, 'legal_hold'));
    expect(legal.constructor).toBe(errors.ApiError);
    expect(legal).toMatchObject({ status: 451, code: 'legal_hold', requestId: undefined, details: undefined });
    expect(errorFromResponse(507, new Headers(), errorBody(507, 'storage_full'))).toBeInstanceOf(errors.InternalServerError);
  });

  it('keeps a code it does not know under a status it knows', () => {
    expect(errorFromResponse(409, new Headers(), errorBody(409, 'adoption_in_progress'))).toMatchObject({
      constructor: errors.ConflictError,
      code: 'adoption_in_progress',
    });
  });

  it('names an answer that is not the Error object unexpected_response, quoting the start of its body', () => {
    const page = `<html><body>${'x'.repeat(300)}</body></html>`;
    const error = errorFromResponse(502, new Headers({ 'Content-Type': 'text/html' }), page);
    expect(error).toBeInstanceOf(errors.InternalServerError);
    expect(error.code).toBe(UNEXPECTED_RESPONSE);
    expect(error.message).toContain('HTTP 502');
    expect(error.message).toContain(page.slice(0, 200));
    expect(error.message).not.toContain(page.slice(0, 201));
    expect(errorFromResponse(418, new Headers(), '"just a string"')).toMatchObject({ code: UNEXPECTED_RESPONSE, status: 418 });
    expect(errorFromResponse(418, new Headers(), "I'm a teapot").message).toContain(`"I'm a teapot"`);
  });

  it('keeps Retry-After on any answer', () => {
    expect(errorFromResponse(503, new Headers({ 'Retry-After': '2' }), errorBody(503, 'service_unavailable')).retryAfterSeconds).toBe(2);
  });
});

describe('errorFromResponse: a 429 is a RateLimitError that says what refused and until when', () => {
  const midnight = Date.UTC(2027, 2, 2) / 1000;

  it('the day window, named by the RateLimit field, until X-RateLimit-Reset', () => {
    const headers = new Headers({ 'Retry-After': '43200', RateLimit: '"day";r=0;t=43200', 'X-RateLimit-Reset': String(midnight) });
    const error = errorFromResponse(429, headers, errorBody(429, 'rate_limit_exceeded'));
    expect(error).toBeInstanceOf(errors.RateLimitError);
    expect(error).toMatchObject({ window: 'day', retryAfterSeconds: 43_200, resetAt: new Date(midnight * 1000) });
    expect(error.message).toBe('rate_limit_exceeded happened (the day window resets at 2027-03-02T00:00:00.000Z)');
  });

  it('a suspension, by its code', () => {
    const headers = new Headers({ 'Retry-After': '900', RateLimit: '"minute";r=0;t=900', 'X-RateLimit-Reset': String(midnight) });
    const error = errorFromResponse(429, headers, errorBody(429, 'api_key_suspended'));
    expect(error).toMatchObject({ window: 'suspended', code: 'api_key_suspended' });
    expect(error.message).toContain('(suspended until 2027-03-02T00:00:00.000Z)');
  });

  it('a 429 without Retry-After (not the service) is a plain ApiError', () => {
    expect(errorFromResponse(429, new Headers(), errorBody(429, 'rate_limit_exceeded')).constructor).toBe(errors.ApiError);
  });
});
