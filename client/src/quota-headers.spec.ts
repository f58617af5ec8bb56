import { quotaWindow, refusal, retryAfterSeconds } from './quota-headers.js';

describe('the quota headers as the service sends them', () => {
  it('reads Retry-After in whole seconds only', () => {
    expect(retryAfterSeconds(new Headers({ 'Retry-After': '42' }))).toBe(42);
    expect(retryAfterSeconds(new Headers({ 'Retry-After': 'Wed, 21 Oct 2015 07:28:00 GMT' }))).toBeUndefined();
    expect(retryAfterSeconds(new Headers())).toBeUndefined();
  });

  it('reads X-RateLimit-* when all three are integers', () => {
    const headers = { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '17', 'X-RateLimit-Reset': '1803902460' };
    expect(quotaWindow(new Headers(headers))).toEqual({ limit: 60, remaining: 17, reset: 1_803_902_460 });
    expect(quotaWindow(new Headers({ ...headers, 'X-RateLimit-Remaining': '-1' }))).toBeUndefined();
    expect(quotaWindow(new Headers({ 'X-RateLimit-Limit': '60' }))).toBeUndefined();
  });

  describe('refusal: which window refused a 429', () => {
    const now = Date.UTC(2027, 2, 1, 12, 0, 18);

    it('the window the RateLimit field names', () => {
      expect(refusal('rate_limit_exceeded', new Headers({ RateLimit: '"minute";r=0;t=42' }), 42, now).window).toBe('minute');
      expect(refusal('rate_limit_exceeded', new Headers({ RateLimit: '"day";r=0;t=42' }), 42, now).window).toBe('day');
    });

    it('without the field, the day when the wait is longer than a minute', () => {
      expect(refusal('rate_limit_exceeded', new Headers(), 60, now).window).toBe('minute');
      expect(refusal('rate_limit_exceeded', new Headers({ RateLimit: '"hour";r=0;t=61' }), 61, now).window).toBe('day');
    });

    it('a suspension whatever the field says', () => {
      expect(refusal('api_key_suspended', new Headers({ RateLimit: '"minute";r=0;t=900' }), 900, now).window).toBe('suspended');
    });

    it('resets at X-RateLimit-Reset, else after Retry-After', () => {
      expect(refusal('rate_limit_exceeded', new Headers({ 'X-RateLimit-Reset': '1803902460' }), 42, now).resetAt).toEqual(
        new Date(1_803_902_460_000),
      );
      expect(refusal('rate_limit_exceeded', new Headers(), 42, now).resetAt).toEqual(new Date(now + 42_000));
    });
  });
});
