import { connect } from 'node:net';
import { jest } from '@jest/globals';
import type { Response } from 'supertest';
import { ClientsService } from '../../src/modules/plans/index.js';
import { createTestApp } from '../support/test-app.js';
import { createAdminTestApp, type AdminTestApp } from './admin-app.js';

/** Headers whose values differ between any two answers. */
const VARYING = ['date', 'x-request-id', 'content-length'];

/** What a client can compare of two answers: status, headers (names, and values but the varying ones), body. */
function shape(response: Response, path: string) {
  const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, VARYING.includes(name) ? '…' : value]));
  return { status: response.status, headers, body: JSON.parse(response.text.replace(path, '<path>')) as unknown };
}

describe('The admin API, an application of its own on its own port (e2e)', () => {
  let t: AdminTestApp;
  let auth: { Authorization: string };

  beforeAll(async () => {
    t = await createAdminTestApp();
    auth = { Authorization: `Bearer ${(await t.newAdminToken()).token}` };
  });
  afterAll(() => t.close());

  describe('the public application', () => {
    it.each([
      ['GET', '/admin/v1/clients'],
      ['POST', '/admin/v1/clients'],
      ['GET', '/admin/v1/clients/1/keys'],
      ['DELETE', '/admin/v1/clients/1/keys/1'],
      ['GET', '/ADMIN/V1/CLIENTS'],
      ['GET', '/admin'],
      ['GET', '/admin/docs'],
      ['GET', '/admin/docs-json'],
      ['GET', '/admin/docs/swagger-ui.css'],
    ])('answers %s %s exactly as a path nothing serves, even with an admin token', async (method, path) => {
      const send = (target: string) => {
        const request = t.http()[method.toLowerCase() as 'get' | 'post' | 'delete'](target).set(auth);
        return method === 'POST' ? request.send({ name: 'x', plan: 'free' }) : request;
      };
      const unknown = shape(await send('/nowhere'), '/nowhere');
      const admin = shape(await send(path), path);
      expect(admin).toEqual(unknown);
      expect(admin).toMatchObject({ status: 404, body: { code: 'not_found', message: `No route ${method} <path>.`, status: 404 } });
    });

    it('serves the public document without a single admin operation or schema', async () => {
      const document = (await t.http().get('/docs-json')).body as { paths: Record<string, unknown>; components: { schemas: object } };
      expect(Object.keys(document.paths).filter((path) => path.includes('admin'))).toEqual([]);
      expect(Object.keys(document.components.schemas)).not.toContain('NewClient');
      expect(JSON.stringify(document)).not.toMatch(/admin_token|createClient/);
    });
  });

  describe('the admin application', () => {
    it.each(['/v1/pets', '/v1/keys', '/docs', '/docs-json', '/metrics', '/health/live', '/health/ready', '/nowhere', '/adminx/v1', '/'])(
      'answers GET %s with 404 not_found, as any path it does not serve',
      async (path) => {
        const res = await t.admin().get(path).set(auth);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ code: 'not_found', message: `No route GET ${path}.`, status: 404 });
      },
    );

    it('serves its own Swagger UI and document', async () => {
      const ui = await t.admin().get('/admin/docs/');
      expect([ui.status, ui.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
      const document = await t.admin().get('/admin/docs-json');
      expect(Object.keys((document.body as { paths: object }).paths)).toContain('/admin/v1/clients');
    });

    it('has the Error object, request ids and the headers of the public listener', async () => {
      const res = await t.admin().get('/admin/v1/clients/abc').set(auth).set('X-Request-Id', 'admin-req-1');
      expect(res.status).toBe(400);
      expect(res.headers['x-request-id']).toBe('admin-req-1');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.body).toEqual({
        code: 'validation_failed',
        message: 'The request has invalid values.',
        status: 400,
        details: [{ field: 'clientId', message: 'clientId must be an integer' }],
      });
      expect((await t.admin().get('/admin/v1/clients').set(auth)).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('answers a method a path does not take with 405 and Allow, and an unknown admin path with 404', async () => {
      const patched = await t.admin().patch('/admin/v1/clients').set(auth);
      expect([patched.status, patched.headers.allow, patched.body.code]).toEqual([405, 'GET, HEAD, POST', 'method_not_allowed']);
      const unknown = await t.admin().get('/admin/v1/nothing').set(auth);
      expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
      // Nest's 404 of a path outside /v1 takes every method: not one the path serves.
      const metrics = await t.http().post('/metrics');
      expect([metrics.status, metrics.headers.allow]).toEqual([405, 'GET, HEAD']);
    });

    it('answers what Node cannot parse with the Error object, and closes the connection', async () => {
      const server = t.adminApp.getHttpServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as { port: number };
        const answer = await new Promise<string>((resolve, reject) => {
          let text = '';
          const socket = connect(port, '127.0.0.1', () => socket.end('GET /admin/v1/clients HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
          socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          socket.on('end', () => resolve(text)).on('error', reject);
        });
        expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*\r\n\r\n\{"code":"validation_failed"/);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('labels the request metrics by listener, keeping the metric and its other labels', async () => {
      await t.admin().get('/admin/v1/clients').set(auth);
      await t.http().get('/nowhere');
      const text = (await t.http().get('/metrics')).text;
      expect(text).toMatch(
        /^http_request_duration_seconds_count\{method="GET",route="\/admin\/v1\/clients",status="200",listener="admin"\} \d+$/m,
      );
      expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="unmatched",status="404",listener="public"\} \d+$/m);
      expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="unmatched",status="404",listener="admin"\} \d+$/m);
    });
  });

  it('closes with the application whose services it runs on, and first: a request in flight still reaches the database', async () => {
    const own = await createAdminTestApp();
    const server = own.adminApp.getHttpServer();
    await own.adminApp.listen(0, '127.0.0.1');
    const { port } = server.address() as { port: number };
    const clients = own.app.get(ClientsService);
    const listPage = clients.listPage.bind(clients);
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    // The request waits in the service, then queries the database once the public application is closing.
    jest.spyOn(clients, 'listPage').mockImplementationOnce(async (page) => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return listPage(page);
    });
    const answer = fetch(`http://127.0.0.1:${port}/admin/v1/clients`, {
      headers: { Authorization: `Bearer ${(await own.newAdminToken()).token}` },
    });
    await inFlight;
    await own.close();
    const res = await answer;
    expect([res.status, await res.json()]).toEqual([200, { clients: [], nextCursor: null }]);
    expect(server.listening).toBe(false);
  });

  it('is an application apart: the public one alone still never serves the admin paths', async () => {
    const off = await createTestApp();
    try {
      const res = await off.http().get('/admin/v1/clients').set(auth);
      expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    } finally {
      await off.close();
    }
  });
});
