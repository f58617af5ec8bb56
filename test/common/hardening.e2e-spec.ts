import { createTestApp, type TestApp } from '../support/test-app.js';

describe('Hardening (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('sends security headers and no X-Powered-By', async () => {
    const res = await t.http().get('/v1/pets');
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'strict-transport-security': expect.stringContaining('max-age='),
      'x-frame-options': 'SAMEORIGIN',
      'content-security-policy': expect.stringContaining("default-src 'self'"),
    });
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('sends no CORS headers unless CORS_ORIGINS names the origin', async () => {
    const preflight = (app: TestApp, origin: string) =>
      app.http().options('/v1/pets').set('Origin', origin).set('Access-Control-Request-Method', 'POST');
    expect((await preflight(t, 'https://app.example')).headers['access-control-allow-origin']).toBeUndefined();
    expect((await t.http().get('/v1/pets').set('Origin', 'https://app.example')).headers['access-control-allow-origin']).toBeUndefined();

    const cors = await createTestApp({ env: { CORS_ORIGINS: 'https://app.example' } });
    try {
      const allowed = await preflight(cors, 'https://app.example');
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
      expect(allowed.headers['access-control-allow-headers']).toContain('Authorization');
      const listed = await cors.http().get('/v1/pets').set('Origin', 'https://app.example');
      expect(listed.headers['access-control-expose-headers']).toContain('X-RateLimit-Remaining');
      expect((await preflight(cors, 'https://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await cors.close();
    }
  });
});
