import { Writable } from 'node:stream';
import { pino } from 'pino';
import { PINO_LOGGER } from '../../src/platform/logging/logging.module.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

interface LogRecord {
  level: number;
  msg: string;
  req?: { id: string; method: string; url: string };
  res?: { statusCode: number };
  route: string | null;
  clientId: number | null;
  responseTime: number;
}

/** A pino logger writing JSON lines into memory, so the test can read what operators would. */
function memoryLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines, records: () => lines.map((line) => JSON.parse(line) as LogRecord) };
}
describe('Request log (e2e)', () => {
  let t: TestApp;
  const log = memoryLogger();

  beforeAll(async () => {
    t = await createTestApp({ overrides: [{ provide: PINO_LOGGER, useValue: log.logger }] });
  });
  afterAll(() => t.close());

  it('writes one JSON line per request with request id, method, route, status, latency and client id', async () => {
    const key = await t.newKey('pro');
    await t.http().get('/v1/pets?limit=5').set('Authorization', `Bearer ${key}`).set('X-Request-Id', 'log-line-1');
    const lines = log.records().filter((r) => r.req?.id === 'log-line-1');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      req: { id: 'log-line-1', method: 'GET', url: '/v1/pets?limit=5' },
      res: { statusCode: 200 },
      route: '/v1/pets',
      clientId: expect.any(Number),
      responseTime: expect.any(Number),
      msg: expect.stringMatching(/^GET \/v1\/pets\?limit=5 200 \d+ms$/),
    });
    expect(Object.keys(lines[0].req!)).toEqual(['id', 'method', 'url']);
    // Each field once: a log shipper must not have to choose between two values.
    const raw = log.lines.find((line) => line.includes('"log-line-1"'))!;
    for (const field of ['"route"', '"clientId"', '"req"', '"res"', '"responseTime"']) expect(raw.split(field)).toHaveLength(2);
  });

  it('logs requests the limiter or the guard refused too, and never the key or the Authorization header', async () => {
    const key = await t.newKey('enterprise', { perMinute: 1, perDay: 100 });
    await t.http().get('/v1/pets').set('Authorization', `Bearer ${key}`);
    await t.http().get('/v1/pets').set('Authorization', `Bearer ${key}`).set('X-Request-Id', 'log-line-429');
    await t.http().get('/v1/pets').set('Authorization', 'Bearer pets_not_a_key').set('X-Request-Id', 'log-line-401');
    const byId = (id: string) => log.records().find((r) => r.req?.id === id);
    expect(byId('log-line-429')).toMatchObject({ res: { statusCode: 429 }, route: null });
    expect(byId('log-line-401')).toMatchObject({ res: { statusCode: 401 }, route: '/v1/pets', clientId: null });
    const everything = log.lines.join('\n');
    expect(everything).not.toContain(key);
    expect(everything).not.toContain('pets_not_a_key');
    expect(everything.toLowerCase()).not.toContain('authorization');
  });

  it('leaves health probes and metric scrapes out of the request log', async () => {
    const before = log.lines.length;
    await t.http().get('/health/live');
    await t.http().get('/metrics');
    expect(log.lines.length).toBe(before);
  });
});
