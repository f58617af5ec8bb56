import { OPERATOR } from '../support/test-app.js';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { jest } from '@jest/globals';
import { AdminTokensService } from '../../src/modules/admin/index.js';
import { AdminTokensRepository } from '../../src/modules/admin/admin-tokens.repository.js';
import { ApiKeysService, tokenFormat } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/index.js';
import { createLogger, PINO_LOGGER } from '../../src/platform/logging/index.js';
import { FakeClock } from '../support/fake-clock.js';
import { createAdminTestApp, type AdminTestApp } from './admin-app.js';

const guess = () => tokenFormat('pets_admin_').generate();
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const CHALLENGE = 'Bearer realm="pets-admin"';

describe('Admin authentication (e2e)', () => {
  let t: AdminTestApp;
  // Inside a UTC minute, moved by hand: the limiter's windows and the lookup cache follow it.
  const clock = new FakeClock(new Date('2027-03-01T12:00:10Z'));
  let logged = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  });
  let token: string;

  beforeAll(async () => {
    t = await createAdminTestApp({
      clock,
      overrides: [{ provide: PINO_LOGGER, useValue: createLogger({ logLevel: 'debug', production: true }, sink) }],
    });
    token = (await t.newAdminToken()).token;
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  it('admits a live admin token', async () => {
    expect((await t.admin().get('/admin/v1/clients').set(bearer(token))).status).toBe(200);
  });

  it.each([
    ['no Authorization header', {}, 'missing_admin_token'],
    ['another scheme', { Authorization: `Basic ${Buffer.from(`x:${'y'}`).toString('base64')}` }, 'missing_admin_token'],
    ['a well-formed token nobody made', bearer(guess()), 'invalid_admin_token'],
    ['a token whose checksum is wrong', bearer(`pets_admin_${'a'.repeat(38)}`), 'invalid_admin_token'],
  ])('refuses %s with 401 and the Error object', async (_case, headers, code) => {
    const res = await t.admin().get('/admin/v1/clients').set(headers);
    expect([res.status, res.headers['www-authenticate'], res.body.code, res.body.status]).toEqual([401, CHALLENGE, code, 401]);
  });

  it('refuses an API key, whatever its scopes: a keys:manage key gets 401', async () => {
    const client = await t.app.get(ClientsService).create('Manager', 'pro', {}, OPERATOR);
    const { key } = await t.app.get(ApiKeysService).issue(client.id, { scopes: ['pets:read', 'pets:write', 'keys:manage'] }, OPERATOR);
    expect((await t.http().get('/v1/keys').set(bearer(key))).status).toBe(200);
    const res = await t.admin().get(`/admin/v1/clients/${client.id}/keys`).set(bearer(key));
    expect([res.status, res.body.code]).toEqual([401, 'invalid_admin_token']);
  });

  it('refuses a revoked token within AUTH_CACHE_TTL_MS (4 s): the lookup cache is the only delay', async () => {
    const doomed = await t.newAdminToken('doomed');
    expect((await t.admin().get('/admin/v1/clients').set(bearer(doomed.token))).status).toBe(200);
    await t.app.get(AdminTokensService).revoke(doomed.id, OPERATOR);
    clock.advance(4_001);
    const res = await t.admin().get('/admin/v1/clients').set(bearer(doomed.token));
    expect([res.status, res.body.code]).toEqual([401, 'invalid_admin_token']);
  });

  describe('before the body is read', () => {
    const post = (headers: Record<string, string>, body: string, type = 'application/json') =>
      t.admin().post('/admin/v1/clients').set(headers).set('Content-Type', type).send(body);

    it.each([
      ['malformed JSON', '{"name":', 'application/json', 400, 'malformed_json'],
      [
        'a body over the 16 KiB limit',
        JSON.stringify({ name: 'x'.repeat(20_000), plan: 'free' }),
        'application/json',
        413,
        'payload_too_large',
      ],
      ['a body that is not JSON', 'name=x', 'application/x-www-form-urlencoded', 415, 'unsupported_media_type'],
    ])('answers %s 401 without a token, and only with one what the body deserves', async (_case, body, type, status, code) => {
      const refused = await post({}, body, type);
      expect([refused.status, refused.body.code]).toEqual([401, 'missing_admin_token']);
      const guessed = await post(bearer(guess()), body, type);
      expect([guessed.status, guessed.body.code]).toEqual([401, 'invalid_admin_token']);
      const admitted = await post(bearer(token), body, type);
      expect([admitted.status, admitted.body.code]).toEqual([status, code]);
    });
  });

  it('throttles unknown tokens per address as the public port throttles keys: 429 past the quota, lookups at a trickle', async () => {
    // A minute of its own, so the earlier refusals of this suite do not count.
    clock.set('2027-03-01T12:05:10Z');
    expect((await t.admin().get('/admin/v1/clients').set(bearer(token))).status).toBe(200);
    clock.advance(10_000);
    const lookups = jest.spyOn(t.app.get(AdminTokensRepository), 'findUnrevokedByHash');
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await t.admin().get('/admin/v1/clients').set(bearer(guess()))).status);
    // The free plan's 60 a minute for callers without a valid key, then 429; 10 lookups a minute once refused.
    expect(statuses.filter((status) => status === 401)).toHaveLength(60);
    expect(statuses.slice(60).every((status) => status === 429)).toBe(true);
    expect(lookups.mock.calls.length).toBe(71);
    const refused = await t.admin().get('/admin/v1/clients');
    expect([refused.status, refused.body.code, refused.headers['retry-after']]).toEqual([429, 'rate_limit_exceeded', '40']);

    // A token this replica verified in the last 5 minutes still passes; the public port counts its own callers apart.
    expect((await t.admin().get('/admin/v1/clients').set(bearer(token))).status).toBe(200);
    expect((await t.http().get('/v1/pets')).status).toBe(401);
    // The next minute the address starts afresh.
    clock.advance(60_000);
    expect((await t.admin().get('/admin/v1/clients').set(bearer(guess()))).status).toBe(401);
  });

  it('never logs a token, an API key, or their hashes, while logging every admin request', async () => {
    const client = await t.app.get(ClientsService).create('Logged', 'pro', {}, OPERATOR);
    const { key } = await t.app.get(ApiKeysService).issue(client.id, {}, OPERATOR);
    const unknown = guess();
    for (const secret of [token, unknown, key]) {
      await t.admin().post('/admin/v1/clients').set(bearer(secret)).send({ name: 'Logged', plan: 'free' });
      await t.admin().get(`/admin/v1/clients/${client.id}/keys`).set(bearer(secret)).set('X-Api-Key', secret);
    }
    expect(logged).toContain('"url":"/admin/v1/clients"');
    expect(logged).toMatch(/"statusCode":401/);
    for (const secret of [token, unknown, key]) {
      expect(logged).not.toContain(secret);
      expect(logged).not.toContain(createHash('sha256').update(secret).digest('hex'));
    }
  });
});
