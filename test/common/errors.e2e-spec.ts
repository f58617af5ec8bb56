import { jest } from '@jest/globals';
import { connect } from 'node:net';
import { PetsRepository } from '../../src/modules/pets/pets.repository.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('Error responses (e2e)', () => {
  let t: TestApp;
  let auth: { Authorization: string };

  const post = (body: string | Buffer, contentType?: string) => {
    const req = t.http().post('/v1/pets').set(auth);
    if (contentType) req.set('Content-Type', contentType);
    // Raw bytes as given: superagent would otherwise JSON-encode a Buffer.
    return req.serialize((raw: unknown) => raw as string).send(body as string);
  };
  const expectError = (res: { status: number; body: unknown; headers: Record<string, string> }, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(expect.objectContaining({ code, message: expect.any(String), status }));
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.(js|ts):\d+|SELECT|INSERT|TypeORM/i);
  };

  beforeAll(async () => {
    t = await createTestApp();
    auth = { Authorization: `Bearer ${await t.newKey()}` };
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['truncated JSON', '{"name":"Rex",'],
    ['a bare word', 'Rex'],
    ['trailing garbage', '{"name":"Rex","categoryId":1} x'],
  ])('answers %s with 400 malformed_json', async (_case, body) => {
    expectError(await post(body, 'application/json'), 400, 'malformed_json');
  });

  it('answers invalid UTF-8 with 400 malformed_json', async () => {
    const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","categoryId":1}')]);
    expectError(await post(body, 'application/json'), 400, 'malformed_json');
  });

  // Found by the fuzzer (test/fuzz): a lone surrogate escape is valid JSON syntax but not Unicode
  // text; it was stored as bytes that read back as something else than the 201 had returned.
  it.each([
    ['in a value', '{"name":"Rex\\ud800","categoryId":1}'],
    ['in a key', '{"name":"Rex","categoryId":1,"\\udc00":1}'],
  ])('answers a lone surrogate escape %s with 400 malformed_json and stores nothing', async (_case, body) => {
    const before = await t.dataSource.query('SELECT COUNT(*) AS n FROM pets');
    expectError(await post(body, 'application/json'), 400, 'malformed_json');
    expect(await t.dataSource.query('SELECT COUNT(*) AS n FROM pets')).toEqual(before);
  });

  // Found by the fuzzer (test/fuzz): thousands of brackets inside a declared property overflowed
  // the stack of class-transformer (500); with an Idempotency-Key, of the body fingerprint too.
  it.each([
    ['in name', `{"name":${'['.repeat(5000)}${']'.repeat(5000)},"categoryId":1}`, {}],
    [
      'in categoryId, with an Idempotency-Key',
      `{"name":"Rex","categoryId":${'{"a":'.repeat(2500)}1${'}'.repeat(2500)}}`,
      { 'Idempotency-Key': 'deep-1' },
    ],
    ['at the top', `${'['.repeat(33)}${']'.repeat(33)}`, {}],
  ])('answers a body nested more than 32 levels deep %s with 400 validation_failed', async (_case, body, headers) => {
    const res = await post(body, 'application/json').set(headers);
    expectError(res, 400, 'validation_failed');
    expect(res.body.details).toEqual([{ field: 'body', message: 'the body is nested more than 32 levels deep' }]);
  });

  it('accepts a body nested exactly 32 levels deep as far as the parser goes', async () => {
    const res = await post(`{"name":"Rex","categoryId":1,"x":${'['.repeat(31)}${']'.repeat(31)}}`, 'application/json');
    expectError(res, 400, 'validation_failed');
    expect(res.body.details).toEqual([{ field: 'x', message: 'property x should not exist' }]);
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['form data', 'application/x-www-form-urlencoded'],
    ['another charset', 'application/json; charset=latin1'],
    ['a JSON-like type', 'application/merge-patch+json'],
  ])('answers a body sent as %s with 415 unsupported_media_type', async (_case, type) => {
    expectError(await post('{"name":"Rex","categoryId":1}', type), 415, 'unsupported_media_type');
  });

  it('answers a body without Content-Type with 415', async () => {
    const res = await t.http().post('/v1/pets').set(auth).send(Buffer.from('{}'));
    expectError(res, 415, 'unsupported_media_type');
  });

  it('accepts application/json with charset=utf-8', async () => {
    const res = await post('{"name":"Rex","categoryId":1}', 'application/json; charset=UTF-8');
    expect(res.status).toBe(201);
  });

  it('answers a body over BODY_LIMIT with 413 payload_too_large', async () => {
    const res = await post(JSON.stringify({ name: 'x'.repeat(17 * 1024), categoryId: 1 }), 'application/json');
    expectError(res, 413, 'payload_too_large');
    expect(res.body.message).toContain('16kb');
  });

  it('answers an unknown /v1 route with 404 not_found, without needing a key', async () => {
    expectError(await t.http().get('/v1/store/orders'), 404, 'not_found');
    expectError(await t.http().get('/v1/pets/1/toys'), 404, 'not_found');
  });

  it.each(['//v1/pets', '/docs/..%2f..%2fetc%2fpasswd', '/docs/%2e%2e/package.json', '/nowhere', '/health'])(
    'answers %s, outside the routes Nest serves, with the 404 Error object, not an HTML page',
    async (path) => {
      expectError(await t.http().get(path), 404, 'not_found');
    },
  );

  it.each([
    ['no body', undefined],
    ['an empty object', '{}'],
  ])('names the missing fields of a creation with %s', async (_case, body) => {
    const res = await (body === undefined
      ? t.http().post('/v1/pets').set(auth).set('Content-Type', 'application/json')
      : post(body, 'application/json'));
    expectError(res, 400, 'validation_failed');
    expect(res.body.details).toEqual([
      { field: 'name', message: 'name is required' },
      { field: 'categoryId', message: 'categoryId is required' },
    ]);
  });

  it('answers a known path with another method with 405 and an Allow header', async () => {
    const res = await t.http().delete('/v1/pets');
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    const one = await t.http().put('/v1/pets/1').set(auth).send({});
    expectError(one, 405, 'method_not_allowed');
    expect(one.headers.allow).toBe('GET, HEAD');
  });

  it('answers an unexpected exception with a generic 500 internal_error', async () => {
    jest
      .spyOn(t.app.get(PetsRepository), 'findPage')
      .mockRejectedValue(new TypeError("Cannot read properties of undefined (reading 'id') SELECT * FROM pets"));
    const res = await t.http().get('/v1/pets').set(auth);
    expectError(res, 500, 'internal_error');
    expect(res.body.message).toBe('An unexpected error occurred.');
  });

  it('answers a database that cannot be reached with 503 service_unavailable', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    jest.spyOn(t.app.get(PetsRepository), 'create').mockRejectedValue(refused);
    expectError(await post('{"name":"Rex","categoryId":1}', 'application/json'), 503, 'service_unavailable');
  });

  it('echoes a sane X-Request-Id and replaces an insane one, on errors too', async () => {
    const kept = await t.http().get('/v1/nowhere').set('X-Request-Id', 'trace-123:abc/DEF+=_.');
    expect(kept.headers['x-request-id']).toBe('trace-123:abc/DEF+=_.');
    for (const insane of ['has space', 'x'.repeat(129), 'semi;colon']) {
      const res = await t.http().get('/v1/pets').set('X-Request-Id', insane);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect((await t.http().get('/v1/pets').set(auth)).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('does not say it is Express', async () => {
    expect((await t.http().get('/v1/pets').set(auth)).headers['x-powered-by']).toBeUndefined();
  });

  describe('requests Node cannot parse', () => {
    let port: number;
    beforeAll(async () => {
      await t.app.listen(0, '127.0.0.1');
      port = Number(new URL(await t.app.getUrl()).port);
    });

    /**
     * Writes raw bytes on a fresh connection, as a client that keeps it open for the answer (one that
     * half-closes gets none to a request still running: Node ends the socket), and resolves with
     * everything the server sent back until it closed the connection.
     */
    const rawExchange = (bytes: Buffer): Promise<string> =>
      new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
        socket.on('error', reject);
      });

    it.each([
      [
        'raw non-ASCII bytes in the request line',
        Buffer.concat([Buffer.from('GET /v1/pets/'), Buffer.from([0xff, 0xfe]), Buffer.from(' HTTP/1.1\r\n')]),
      ],
      ['a header line without a colon', Buffer.from('GET /v1/pets HTTP/1.1\r\nHost: x\r\nno colon here\r\n')],
      ['a request line that is not HTTP', Buffer.from('HELLO\r\n')],
    ])('answers %s, which Node cannot parse, with the 400 Error object', async (_case, head) => {
      const raw = await rawExchange(Buffer.concat([head, Buffer.from(`Authorization: Bearer x\r\n\r\n`)]));
      const [headers, body] = raw.split('\r\n\r\n');
      expect(headers).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(headers).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
      expect(headers).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
      expect(JSON.parse(body)).toEqual({ code: 'validation_failed', message: expect.stringContaining('not valid HTTP/1.1'), status: 400 });
    });

    it('answers headers over the size limit (80 KB) with the 431 Error object', async () => {
      const raw = await rawExchange(Buffer.from(`GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(80_000)}\r\n\r\n`));
      const [headers, body] = raw.split('\r\n\r\n');
      expect(headers).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
      expect(headers).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
      expect(JSON.parse(body)).toEqual({ code: 'headers_too_large', message: expect.any(String), status: 431 });
    });

    it('answers the complete request, then the 400 Error object, when garbage follows it in the same packet', async () => {
      const raw = await rawExchange(
        Buffer.from(`GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.Authorization}\r\n\r\nGARBAGE\x00\x01 junk\r\n\r\n`),
      );
      expect(raw).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      const second = raw.slice(raw.indexOf('HTTP/1.1 400 Bad Request\r\n'));
      expect(second).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[^]*\r\nConnection: close\r\n\r\n/);
      expect(JSON.parse(second.split('\r\n\r\n')[1])).toEqual(expect.objectContaining({ code: 'validation_failed', status: 400 }));
    });
  });
});
