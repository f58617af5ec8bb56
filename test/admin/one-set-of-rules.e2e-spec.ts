import { executeCommand } from '../../src/cli/execute-command.js';
import { parseCommand } from '../../src/cli/parse-command.js';
import { migratedDatabase } from '../support/test-databases.js';
import { createAdminTestApp, type AdminTestApp } from './admin-app.js';

/** What an operator gets back: the JSON object, or the error (its kind and message). */
type Outcome = { ok: Record<string, unknown> } | { error: string; message: string };

/** Values that differ between any two runs: instants and random keys. */
const VARYING = new Set(['createdAt', 'expiresAt', 'revokedAt', 'key', 'prefix']);

/** An outcome with the varying values replaced by what they are (an instant, a key, or null). */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, field]) => [name, VARYING.has(name) && field !== null ? `<${name}>` : comparable(field)]),
  );
}

/**
 * Each operation run twice, on two empty databases: through the command-line tool's command table
 * (its parsing, then `executeCommand`, as `dist/src/cli.js` runs it) and through the admin API. Both
 * call the same service methods, so with the same ids the results are equal, but for instants and
 * the random keys, and so are the refusals of the same bad input.
 */
describe('One set of rules: the command-line tool and the admin API (e2e)', () => {
  let cliDatabase: string;
  let t: AdminTestApp;
  let auth: { Authorization: string };

  const viaCli = async (...argv: string[]): Promise<Outcome> => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = cliDatabase;
    try {
      const { json } = await executeCommand(parseCommand([...argv, '--json']));
      return { ok: json as Record<string, unknown> };
    } catch (error) {
      return { error: (error as Error).name, message: (error as Error).message };
    } finally {
      process.env.DATABASE_URL = saved;
    }
  };
  const viaApi = async (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: object): Promise<Outcome> => {
    const res = await t.admin()[method](`/admin/v1${path}`).set(auth).send(body);
    if (res.status >= 400) return { error: res.body.code as string, message: res.body.message as string };
    return { ok: (res.status === 204 ? {} : res.body) as Record<string, unknown> };
  };
  const ok = (outcome: Outcome) => {
    if (!('ok' in outcome)) throw new Error(`expected success, got ${JSON.stringify(outcome)}`);
    return outcome.ok;
  };

  beforeAll(async () => {
    cliDatabase = (await migratedDatabase()).url;
    t = await createAdminTestApp();
    auth = { Authorization: `Bearer ${(await t.newAdminToken()).token}` };
  });
  afterAll(() => t.close());

  it('creates, lists with a cursor, gets and moves clients alike', async () => {
    const pairs: Array<[Outcome, Outcome]> = [
      [
        await viaCli('clients', 'create', '--name', 'Acme', '--plan', 'enterprise', '--per-minute', '100', '--per-day', '1000'),
        await viaApi('post', '/clients', { name: 'Acme', plan: 'enterprise', perMinute: 100, perDay: 1000 }),
      ],
      [
        await viaCli('clients', 'create', '--name', 'Beta', '--plan', 'pro'),
        await viaApi('post', '/clients', { name: 'Beta', plan: 'pro' }),
      ],
      [await viaCli('clients', 'list', '--limit', '1'), await viaApi('get', '/clients?limit=1')],
      [await viaCli('clients', 'get', '2'), await viaApi('get', '/clients/2')],
      [await viaCli('clients', 'set-plan', '2', '--plan', 'business'), await viaApi('put', '/clients/2/plan', { plan: 'business' })],
    ];
    for (const [cli, api] of pairs) expect(comparable(api)).toEqual(comparable(cli));

    const cursor = ok(pairs[2][0]).nextCursor as string;
    expect(cursor).toEqual(ok(pairs[2][1]).nextCursor);
    const [cliNext, apiNext] = [
      await viaCli('clients', 'list', '--limit', '1', '--cursor', cursor),
      await viaApi('get', `/clients?limit=1&cursor=${cursor}`),
    ];
    expect(comparable(apiNext)).toEqual(comparable(cliNext));
    expect(ok(apiNext)).toMatchObject({ clients: [{ id: 2, name: 'Beta', plan: 'business' }], nextCursor: null });
  });

  it('creates keys with scopes and an expiry, lists them with a cursor, rolls and revokes alike', async () => {
    const created = [
      await viaCli('keys', 'create', '--client', '1', '--scopes', 'keys:manage,pets:read', '--expires-in', '3600s'),
      await viaApi('post', '/clients/1/keys', { scopes: ['keys:manage', 'pets:read'], expiresInSeconds: 3600 }),
    ];
    expect(comparable(created[1])).toEqual(comparable(created[0]));
    expect(ok(created[1])).toMatchObject({ id: 1, clientId: 1, plan: 'enterprise', scopes: ['pets:read', 'keys:manage'], name: '' });
    for (const outcome of created) {
      const { createdAt, expiresAt } = ok(outcome) as { createdAt: string; expiresAt: string };
      expect(Date.parse(expiresAt) - Date.parse(createdAt)).toBeGreaterThanOrEqual(3_599_000);
      expect(Date.parse(expiresAt) - Date.parse(createdAt)).toBeLessThanOrEqual(3_601_000);
    }
    const second = [await viaCli('keys', 'create', '--client', '1'), await viaApi('post', '/clients/1/keys', {})];
    expect(comparable(second[1])).toEqual(comparable(second[0]));

    const pages = [await viaCli('keys', 'list', '--client', '1', '--limit', '1'), await viaApi('get', '/clients/1/keys?limit=1')];
    expect(comparable(pages[1])).toEqual(comparable(pages[0]));
    const cursor = ok(pages[0]).nextCursor as string;
    const next = [
      await viaCli('keys', 'list', '--client', '1', '--limit', '1', '--cursor', cursor),
      await viaApi('get', `/clients/1/keys?limit=1&cursor=${cursor}`),
    ];
    expect(comparable(next[1])).toEqual(comparable(next[0]));
    expect(ok(next[1])).toMatchObject({ keys: [{ id: 2 }], nextCursor: null });

    const rolled = [
      await viaCli('keys', 'roll', '1', '--overlap', '60s'),
      await viaApi('post', '/clients/1/keys/1/roll', { overlapSeconds: 60 }),
    ];
    expect(comparable(rolled[1])).toEqual(comparable(rolled[0]));
    expect(ok(rolled[1])).toMatchObject({ id: 3, clientId: 1, scopes: ['pets:read', 'keys:manage'], plan: 'enterprise' });

    const revoked = [await viaCli('keys', 'revoke', '2'), await viaApi('delete', '/clients/1/keys/2')];
    expect(ok(revoked[0])).toEqual({ id: 2, revoked: true, alreadyRevoked: false });
    expect(ok(revoked[1])).toEqual({});
    const after = [await viaCli('keys', 'list', '--client', '1', '--limit', '10'), await viaApi('get', '/clients/1/keys?limit=10')];
    expect(comparable(after[1])).toEqual(comparable(after[0]));
    const keys = ok(after[1]).keys as Array<{ id: number; expiresAt: string | null; revokedAt: string | null }>;
    expect(keys.map(({ id, revokedAt }) => [id, revokedAt !== null])).toEqual([
      [1, false],
      [2, true],
      [3, false],
    ]);
  });

  it("reads a client's usage and the audit log alike, each change recorded with who made it", async () => {
    const usage = [
      await viaCli('usage', '--client', '1', '--from', '2027-03-01', '--to', '2027-03-31'),
      await viaApi('get', '/clients/1/usage?from=2027-03-01&to=2027-03-31'),
    ];
    expect(comparable(usage[1])).toEqual(comparable(usage[0]));
    expect(ok(usage[1])).toMatchObject({ from: '2027-03-01', to: '2027-03-31', totals: { admitted: 0, refused: 0 } });

    const events = [
      await viaCli('audit', 'list', '--client', '1', '--limit', '3'),
      await viaApi('get', '/audit-events?clientId=1&limit=3'),
    ];
    // The changes alike; who made them and the events' ids (the admin API's database also recorded its token) differ.
    const changes = (outcome: Outcome) =>
      (ok(outcome).items as Array<Record<string, unknown>>).map(({ action, clientId, keyId, details }) => ({
        action,
        clientId,
        keyId,
        details: comparable(details),
      }));
    expect(changes(events[1])).toEqual(changes(events[0]));
    const [cliCursor, apiCursor] = events.map((outcome) => ok(outcome).nextCursor as string);
    const older = [
      await viaCli('audit', 'list', '--client', '1', '--limit', '3', '--cursor', cliCursor),
      await viaApi('get', `/audit-events?clientId=1&limit=3&cursor=${apiCursor}`),
    ];
    expect(changes(older[1]).map(({ action }) => action)).toEqual(['key.created', 'client.created']);
    expect(changes(older[1])).toEqual(changes(older[0]));
    const [cliEvents, apiEvents] = events.map(
      (outcome) => ok(outcome).items as Array<{ action: string; actor: string; requestId: string }>,
    );
    expect(cliEvents.map((e) => e.action)).toEqual(['key.revoked', 'key.rolled', 'key.created']);
    expect(cliEvents.every((e) => e.actor === 'cli' && e.requestId === null)).toBe(true);
    expect(apiEvents.every((e) => /^admin-token:\d+$/.test(e.actor) && typeof e.requestId === 'string')).toBe(true);
    // The admin token the suite made with the tool's service is on the record too, without its secret.
    const tokenEvents = ok(await viaApi('get', '/audit-events?action=admin_token.created')).items;
    expect(tokenEvents).toEqual([expect.objectContaining({ actor: 'cli', action: 'admin_token.created', details: { adminTokenId: 1 } })]);

    const refusals = [
      await viaCli('usage', '--client', '1', '--from', '2027-03-02', '--to', '2027-03-01'),
      await viaApi('get', '/clients/1/usage?from=2027-03-02&to=2027-03-01'),
    ];
    expect(refusals[1]).toEqual({ error: 'validation_failed', message: expect.stringContaining('must not be after') });
    expect(refusals[0]).toEqual({ error: 'UsageError', message: expect.stringContaining('must not be after') });
    expect([await viaCli('usage', '--client', '99'), await viaApi('get', '/clients/99/usage')]).toEqual([
      { error: 'ClientNotFoundError', message: 'No client with id 99.' },
      { error: 'not_found', message: 'No client with id 99.' },
    ]);
  });

  it('refuses the same bad input alike: the same rule, the same message, but for how each names the limits', async () => {
    const cases: Array<[Outcome, Outcome, string]> = [
      [
        await viaCli('clients', 'create', '--name', 'X', '--plan', 'gold'),
        await viaApi('post', '/clients', { name: 'X', plan: 'gold' }),
        'Unknown plan "gold"; choose one of free, pro, business, enterprise.',
      ],
      [
        await viaCli('clients', 'create', '--name', 'X', '--plan', 'enterprise', '--per-day', '5'),
        await viaApi('post', '/clients', { name: 'X', plan: 'enterprise', perDay: 5 }),
        'The enterprise plan needs both perMinute and perDay.',
      ],
      [
        await viaCli('clients', 'set-plan', '2', '--plan', 'free', '--per-minute', '5', '--per-day', '9'),
        await viaApi('put', '/clients/2/plan', { plan: 'free', perMinute: 5, perDay: 9 }),
        'The free plan has fixed limits; perMinute and perDay are only for enterprise.',
      ],
      [await viaCli('clients', 'get', '99'), await viaApi('get', '/clients/99'), 'No client with id 99.'],
      [
        await viaCli('clients', 'set-plan', '99', '--plan', 'pro'),
        await viaApi('put', '/clients/99/plan', { plan: 'pro' }),
        'No client with id 99.',
      ],
      [await viaCli('keys', 'create', '--client', '99'), await viaApi('post', '/clients/99/keys', {}), 'No client with id 99.'],
      [
        await viaCli('keys', 'list', '--client', '99', '--limit', '5'),
        await viaApi('get', '/clients/99/keys?limit=5'),
        'No client with id 99.',
      ],
    ];
    const cliNames = (message: string) => message.replace('--per-minute', 'perMinute').replace('--per-day', 'perDay');
    for (const [cli, api, message] of cases) {
      expect(api).toEqual({ error: message.startsWith('No client') ? 'not_found' : 'validation_failed', message });
      expect(cli).toEqual({ error: message.startsWith('No client') ? 'ClientNotFoundError' : 'UsageError', message: expect.any(String) });
      expect(cliNames((cli as { message: string }).message)).toBe(message);
    }

    // A key that is not live does not roll, either way; nor does a cursor of another listing page.
    const roll = [await viaCli('keys', 'roll', '2'), await viaApi('post', '/clients/1/keys/2/roll', {})];
    expect(roll.map((outcome) => 'error' in outcome)).toEqual([true, true]);
    const cursor = ok(await viaApi('get', '/clients/1/keys?limit=1')).nextCursor as string;
    const foreign = [await viaCli('clients', 'list', '--cursor', cursor), await viaApi('get', `/clients?cursor=${cursor}`)];
    expect(foreign).toEqual([
      { error: 'ValidationFailedException', message: expect.stringContaining('continues another listing') },
      { error: 'validation_failed', message: expect.stringContaining('continues another listing') },
    ]);
    expect((foreign[0] as { message: string }).message).toBe((foreign[1] as { message: string }).message);
  });
});
