import { createTestApp, type TestApp } from '../support/test-app.js';
import { KennelsModule } from './kennels/index.js';

/**
 * A team's module plugs in from its own folder: the fixture under ./kennels/ adds routes (a POST
 * with a body among them), an error code, a configuration variable and a readiness indicator, and
 * the application is told about it in one place, the module list below.
 */
const MODULES = [KennelsModule];

describe('a module added from its own folder (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({ modules: MODULES, env: { KENNEL_COUNT: '2' } });
    key = await t.newKey();
  });
  afterAll(() => t.close());

  it('serves its route behind the API key, with the quota headers of every /v1 response', async () => {
    const res = await t.http().get('/v1/kennels/2').set('Authorization', `Bearer ${key}`).expect(200);
    expect(res.body).toEqual({ id: 2 });
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'ratelimit-policy']) {
      expect(res.headers[name]).toEqual(expect.any(String));
    }
    const anonymous = await t.http().get('/v1/kennels/2').expect(401);
    expect(anonymous.body).toMatchObject({ code: 'missing_api_key', status: 401 });
    expect(anonymous.headers['x-ratelimit-limit']).toEqual(expect.any(String));
  });

  it('answers its own error as the Error object with its code, and bad input as validation_failed', async () => {
    const missing = await t.http().get('/v1/kennels/3').set('Authorization', `Bearer ${key}`).expect(404);
    expect(missing.body).toEqual({ code: 'kennel_not_found', message: 'No kennel with id 3.', status: 404 });
    const invalid = await t.http().get('/v1/kennels/abc').set('Authorization', `Bearer ${key}`).expect(400);
    expect(invalid.body).toMatchObject({ code: 'validation_failed', status: 400 });
  });

  it('reads the JSON body of its POST through the pipeline, with every body error as the Error object', async () => {
    const post = () => t.http().post('/v1/kennels').set('Authorization', `Bearer ${key}`);
    const created = await post().send({ name: 'North', places: 4 }).expect(201);
    expect(created.body).toEqual({ id: 3, name: 'North', places: 4 });
    const invalid = await post().send({ name: 'North', places: 99, roof: true }).expect(400);
    expect(invalid.body).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(invalid.body.details.map((detail: { field: string }) => detail.field).sort()).toEqual(['places', 'roof']);
    const tooLarge = await post()
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(20_000), places: 1 }))
      .expect(413);
    expect(tooLarge.body).toMatchObject({ code: 'payload_too_large', status: 413 });
    const text = await post().set('Content-Type', 'text/plain').send('North').expect(415);
    expect(text.body).toMatchObject({ code: 'unsupported_media_type', status: 415 });
    const malformed = await post().set('Content-Type', 'application/json').send('{"name": "North",').expect(400);
    expect(malformed.body).toMatchObject({ code: 'malformed_json', status: 400 });
    for (const res of [created, invalid, tooLarge, text, malformed]) expect(res.headers['x-ratelimit-limit']).toEqual(expect.any(String));
  });

  it('answers 405 for a method its path does not take, whatever the body', async () => {
    const res = await t
      .http()
      .put('/v1/kennels')
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'text/plain')
      .send('x')
      .expect(405);
    expect(res.body).toMatchObject({ code: 'method_not_allowed', status: 405 });
    expect(res.headers.allow).toBe('POST');
  });

  it('shows its indicator in readiness', async () => {
    const res = await t.http().get('/health/ready').expect(200);
    expect(res.body.info).toMatchObject({ kennels: { status: 'up', open: true }, database: { status: 'up' } });
  });

  it('has its operation, its error code and the quota headers in the OpenAPI document', async () => {
    const document = (await t.http().get('/docs-json').expect(200)).body;
    const operation = document.paths['/kennels/{kennelId}'].get;
    expect(operation.operationId).toBe('getKennel');
    expect(operation.responses['404'].description).toBe('No kennel has this id (`kennel_not_found`).');
    expect(operation.responses['401'].headers['WWW-Authenticate']).toBeDefined();
    expect(operation.responses['200'].headers['X-RateLimit-Limit']).toEqual({ $ref: '#/components/headers/X-RateLimit-Limit' });
    expect(operation.responses['429'].headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    expect(document.components.schemas.Error.properties.code.description).toContain('kennel_not_found');
  });

  it('has its configuration variable checked at boot, in the one message that names every bad variable', async () => {
    await expect(createTestApp({ modules: MODULES, env: { KENNEL_COUNT: 'many', PORT: 'eighty' } })).rejects.toThrow(
      /PORT must be an integer[\s\S]*KENNEL_COUNT must be an integer from 1 to 100 \(got "many"\)/,
    );
  });
});
