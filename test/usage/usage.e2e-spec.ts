import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/clients.service.js';
import { UsageMeter } from '../../src/modules/usage/usage-meter.js';
import { FakeClock } from '../support/fake-clock.js';
import { migratedDatabase, queryDatabase } from '../support/test-databases.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';

const MANAGER: string[] = ['pets:read', 'keys:manage'];
const READER: string[] = ['pets:read'];
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

describe('Usage metering and GET /v1/usage (e2e, in-process limiter)', () => {
  const clock = new FakeClock(new Date('2027-03-01T23:58:10Z'));
  let t: TestApp;

  /** A client with a quota of 3 a minute, and a key of it for each set of scopes. */
  const newClient = async (...scopeSets: string[][]) => {
    const client = await t.app.get(ClientsService).create('Metered', 'enterprise', { perMinute: 3, perDay: 1_000 }, OPERATOR);
    const keys = [];
    for (const scopes of scopeSets) {
      const { key, apiKey } = await t.app.get(ApiKeysService).issue(client.id, { scopes }, OPERATOR);
      keys.push({ key, id: apiKey.id });
    }
    return { clientId: client.id, keys };
  };
  /** The status of each of `count` requests, with the code of a 429. */
  const statuses = async (key: string, count: number, path = '/v1/pets') => {
    const answers: string[] = [];
    for (let i = 0; i < count; i++) {
      const res = await t.http().get(path).set(bearer(key));
      answers.push(res.status === 429 ? `429 ${res.body.code}` : String(res.status));
    }
    return answers;
  };
  const usage = (key: string, query = '') => t.http().get(`/v1/usage${query}`).set(bearer(key));
  const flush = () => t.app.get(UsageMeter).flush();

  beforeAll(async () => {
    // Three refusals in a minute suspend a key, so a few requests show both kinds of 429.
    t = await createTestApp({ clock, env: { RATE_LIMIT_BAN_THRESHOLD: '3', RATE_LIMIT_BAN_SECONDS: '60' } });
  });
  afterAll(() => t.close());

  it('records admitted and refused (over quota and suspended) requests per key and UTC day, and answers them', async () => {
    const {
      keys: [manager, reader],
    } = await newClient(MANAGER, READER);
    clock.set('2027-03-01T23:58:10Z');
    const late = await statuses(reader.key, 8);
    expect(late).toEqual([...Array(3).fill('200'), ...Array(3).fill('429 rate_limit_exceeded'), ...Array(2).fill('429 api_key_suspended')]);
    // Neither a reading of the quota nor a caller without a valid key is metered.
    expect((await t.http().get('/v1/rate_limit').set(bearer(manager.key))).status).toBe(200);
    expect(
      (
        await t
          .http()
          .get('/v1/pets')
          .set(bearer(`pets_${'0'.repeat(38)}`))
      ).status,
    ).toBe(401);
    clock.set('2027-03-02T00:00:05Z');
    expect(await statuses(reader.key, 1)).toEqual(['200']);
    await flush();

    const res = await usage(manager.key, '?from=2027-03-01&to=2027-03-02');
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('3');
    expect(res.body).toEqual({
      from: '2027-03-01',
      to: '2027-03-02',
      days: [
        { day: '2027-03-01', keyId: reader.id, admitted: 3, refused: 5 },
        { day: '2027-03-02', keyId: reader.id, admitted: 1, refused: 0 },
      ],
      totals: { admitted: 4, refused: 5 },
    });

    // The reading itself is counted, and shows at the next flush.
    await flush();
    const again = await usage(manager.key, '?from=2027-03-02&to=2027-03-02');
    expect(again.body.days).toEqual([
      { day: '2027-03-02', keyId: manager.id, admitted: 1, refused: 0 },
      { day: '2027-03-02', keyId: reader.id, admitted: 1, refused: 0 },
    ]);
  });

  it('reads the last 30 UTC days by default', async () => {
    const {
      keys: [manager],
    } = await newClient(MANAGER);
    clock.set('2027-03-02T10:00:00Z');
    const res = await usage(manager.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ from: '2027-02-01', to: '2027-03-02', days: [], totals: { admitted: 0, refused: 0 } });
  });

  it("never shows another client's usage: there is no way to name one", async () => {
    const mine = await newClient(MANAGER);
    const theirs = await newClient(MANAGER);
    clock.set('2027-03-02T11:00:00Z');
    await statuses(theirs.keys[0].key, 2);
    await statuses(mine.keys[0].key, 1, '/v1/nowhere');
    await flush();
    const res = await usage(mine.keys[0].key, '?from=2027-03-02&to=2027-03-02');
    expect(res.body.days).toEqual([{ day: '2027-03-02', keyId: mine.keys[0].id, admitted: 1, refused: 0 }]);
    const named = await usage(mine.keys[0].key, `?from=2027-03-02&clientId=${theirs.clientId}`);
    expect([named.status, named.body.code]).toEqual([400, 'validation_failed']);
  });

  it('refuses a key without keys:manage with 403 insufficient_scope', async () => {
    const {
      keys: [reader],
    } = await newClient(READER);
    clock.set('2027-03-02T12:00:00Z');
    const res = await usage(reader.key);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'insufficient_scope', message: expect.stringContaining('keys:manage'), status: 403 });
  });

  it.each([
    ['?from=2027-02-30', 'from', 'from must be a UTC day as YYYY-MM-DD (got "2027-02-30")'],
    ['?to=yesterday', 'to', 'to must be a UTC day as YYYY-MM-DD'],
    ['?from=2027-03-02&to=2027-03-01', 'from', 'from (2027-03-02) must not be after to (2027-03-01)'],
    ['?from=2027-01-01&to=2027-04-04', 'from', 'from 2027-01-01 to 2027-04-04 is 94 days; at most 93 are read at once'],
    ['?from=2026-11-01', 'from', 'from 2026-11-01 to 2027-03-02 is 122 days; at most 93 are read at once'],
    ['?from=2027-03-01&from=2027-03-02', 'from', 'from must be given once'],
    ['?form=2027-03-01', 'form', 'property form should not exist'],
  ])('answers %s with 400 validation_failed naming %s', async (query, field, message) => {
    const {
      keys: [manager],
    } = await newClient(MANAGER);
    clock.set('2027-03-02T13:00:00Z');
    const res = await usage(manager.key, query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', status: 400, details: [{ field, message }] });
  });
});

describe('Usage when the service stops, and in the command-line tool', () => {
  it('writes the counts it holds before the database closes, and the tool reads them with the same rules', async () => {
    const clock = new FakeClock(new Date('2027-03-01T12:00:00Z'));
    const DATABASE_URL = (await migratedDatabase()).url;
    const t = await createTestApp({ clock, env: { DATABASE_URL } });
    const client = await t.app.get(ClientsService).create('Stopping', 'enterprise', { perMinute: 2, perDay: 1_000 }, OPERATOR);
    const { key, apiKey } = await t.app.get(ApiKeysService).issue(client.id, { scopes: MANAGER }, OPERATOR);
    for (let i = 0; i < 3; i++) await t.http().get('/v1/pets').set(bearer(key));
    expect(t.app.get(UsageMeter).pendingCounts()).toBe(3);
    await t.close();

    const stored = 'SELECT client_id::int, day::text, key_id::int, admitted::int, refused::int FROM usage_days';
    expect(await queryDatabase(DATABASE_URL, stored)).toEqual([
      { client_id: client.id, day: '2027-03-01', key_id: apiKey.id, admitted: 2, refused: 1 },
    ]);

    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['dist/src/cli.js', 'usage', '--client', String(client.id), '--from', '2027-03-01', '--to', '2027-03-01', '--json'],
      { env: { ...process.env, DATABASE_URL } },
    );
    expect(JSON.parse(stdout)).toEqual({
      from: '2027-03-01',
      to: '2027-03-01',
      days: [{ day: '2027-03-01', keyId: apiKey.id, admitted: 2, refused: 1 }],
      totals: { admitted: 2, refused: 1 },
    });
  });
});
