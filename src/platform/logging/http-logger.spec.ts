import { Writable } from 'node:stream';
import express from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { requestContextMiddleware } from '../../common/index.js';
import { createHttpLogger } from './http-logger.js';

/** An Express app with the request log, answering `/ok` with 200 and `/fail` with 503 (after a few ms). */
function appLoggingAt(level: string) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const app = express();
  app.use(requestContextMiddleware);
  app.use(createHttpLogger(pino({ level }, stream)));
  app.get('/ok', (_request, response) => {
    response.json({ ok: true });
  });
  app.get('/fail', (_request, response) => {
    setTimeout(() => response.status(503).json({ ok: false }), 5);
  });
  return { app, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('createHttpLogger', () => {
  it('at info, writes a line for every request', async () => {
    const { app, records } = appLoggingAt('info');
    await request(app).get('/ok').set('X-Request-Id', 'ok-1');
    await request(app).get('/fail').set('X-Request-Id', 'fail-1');
    expect(records().map((r) => [r.level, (r.req as { id: string }).id])).toEqual([
      [30, 'ok-1'],
      [50, 'fail-1'],
    ]);
  });

  it('above info, writes only the failures, with the same fields and the real response time', async () => {
    const full = appLoggingAt('info');
    await request(full.app).get('/fail').set('X-Request-Id', 'fail-info');
    const quiet = appLoggingAt('warn');
    await request(quiet.app).get('/ok').set('X-Request-Id', 'ok-warn');
    await request(quiet.app).get('/fail').set('X-Request-Id', 'fail-warn');
    // The line follows the response's `close`, a tick after the client has the answer.
    await new Promise((resolve) => setImmediate(resolve));

    const [line] = quiet.records();
    expect(quiet.records()).toHaveLength(1);
    expect(line).toMatchObject({
      level: 50,
      req: { id: 'fail-warn', method: 'GET', url: '/fail' },
      res: { statusCode: 503 },
      route: '/fail',
      clientId: null,
      msg: 'GET /fail 503 failed',
    });
    expect(line.responseTime).toBeGreaterThanOrEqual(4);
    expect(Object.keys(line).sort()).toEqual(Object.keys(full.records()[0]).sort());
  });
});
