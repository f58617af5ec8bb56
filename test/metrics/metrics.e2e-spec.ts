import { createTestApp, type TestApp } from '../support/test-app.js';

describe('Metrics (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves Prometheus text at /metrics without a key and outside the quota', async () => {
    const key = await t.newKey('free');
    await t.http().get('/v1/pets').set('Authorization', `Bearer ${key}`);
    await t.http().get('/v1/no/such/route');
    const res = await t.http().get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    const text = res.text;
    expect(text).toMatch(
      /^http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/v1\/pets",status="200",listener="public"\} \d+$/m,
    );
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="unmatched",status="404",listener="public"\} 1$/m);
    expect(text).toMatch(/^rate_limit_decisions_total\{plan="free",outcome="admitted"\} 1$/m);
    expect(text).toMatch(/^rate_limit_decisions_total\{plan="anonymous",outcome="admitted"\} 1$/m);
    expect(text).toMatch(/^rate_limiter_degraded 0$/m);
    expect(text).toMatch(/^db_pool_connections\{state="total"\} [1-9]\d*$/m);
    expect(text).toMatch(/^db_pool_connections\{state="max"\} 10$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes /m);
  });

  it('answers OpenMetrics to a scraper that asks for it, and Prometheus text otherwise', async () => {
    // Prometheus's own Accept header (scrape_protocols' default order).
    const prometheusAccept =
      'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';
    const open = await t.http().get('/metrics').set('Accept', prometheusAccept);
    expect(open.status).toBe(200);
    expect(open.headers['content-type']).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
    expect(open.headers['vary']).toMatch(/Accept/);
    expect(open.text).toMatch(/^# TYPE rate_limit_decisions counter$/m);
    expect(open.text).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="unmatched",status="404",listener="public"\} \d+$/m,
    );
    expect(open.text.endsWith('\n# EOF\n')).toBe(true);
    for (const accept of ['text/plain;version=0.0.4', '*/*', 'application/json', 'application/openmetrics-text;version=0.0.1']) {
      const plain = await t.http().get('/metrics').set('Accept', accept);
      expect(plain.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(plain.text).toMatch(/^# TYPE rate_limit_decisions_total counter$/m);
      expect(plain.text).not.toContain('# EOF');
    }
  });

  it('counts refusals by plan and outcome', async () => {
    const key = await t.newKey('enterprise', { perMinute: 1, perDay: 10 });
    await t.http().get('/v1/pets').set('Authorization', `Bearer ${key}`);
    await t.http().get('/v1/pets').set('Authorization', `Bearer ${key}`);
    const text = (await t.http().get('/metrics')).text;
    expect(text).toMatch(/^rate_limit_decisions_total\{plan="enterprise",outcome="refused"\} 1$/m);
  });
});
