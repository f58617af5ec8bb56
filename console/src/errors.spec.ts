import { ApiError, ConnectionError, RateLimitError, TimeoutError } from '../../client/src/index.js';
import { inWords } from './errors.js';

const NOW = new Date('2026-11-28T03:57:18Z');

describe('inWords', () => {
  it('gives a refusal of the minute window its code and when to try again', () => {
    const error = new RateLimitError(
      { status: 429, code: 'rate_limit_exceeded', message: 'Too many requests.', retryAfterSeconds: 42 },
      'minute',
      new Date('2026-11-28T03:58:00Z'),
    );
    expect(inWords(error, NOW)).toBe(
      'Too many requests. (the minute window resets at 2026-11-28T03:58:00.000Z) (rate_limit_exceeded). Try again in 42 s, at 03:58:00 UTC.',
    );
  });

  it('names the day of a reset that is not today, and waits in hours and minutes', () => {
    const error = new RateLimitError(
      { status: 429, code: 'rate_limit_exceeded', message: 'Over the day quota.', retryAfterSeconds: 72_162 },
      'day',
      new Date('2026-11-29T00:00:00Z'),
    );
    expect(inWords(error, NOW)).toMatch(/\(rate_limit_exceeded\)\. Try again in 20 h 3 min, at 2026-11-29 00:00:00 UTC\.$/);
  });

  it('gives any other answer of the API its message, the fields it refused and its code', () => {
    expect(inWords(new ApiError({ status: 403, code: 'insufficient_scope', message: 'This API key lacks a scope.' }))).toBe(
      'This API key lacks a scope. (insufficient_scope)',
    );
    const invalid = new ApiError({
      status: 400,
      code: 'validation_failed',
      message: 'The request has invalid values.',
      details: [
        { field: 'name', message: 'must not be empty' },
        { field: 'url', message: 'must be a URL' },
      ],
    });
    expect(inWords(invalid)).toBe('The request has invalid values. name: must not be empty; url: must be a URL (validation_failed)');
  });

  it('says when the service gave no answer at all', () => {
    expect(inWords(new TimeoutError('timed out'))).toBe('The service did not answer in time. Try again.');
    expect(inWords(new ConnectionError('fetch failed'))).toBe('The service could not be reached. Check the connection and try again.');
  });

  it('keeps the message of anything else', () => {
    expect(inWords(new Error('The key signed in with is not listed.'))).toBe('The key signed in with is not listed.');
    expect(inWords('odd')).toBe('odd');
  });
});
