import { createHash } from 'node:crypto';
import { ValidationFailedException } from '../../src/common/index.js';
import { AuditService, type AuditEventView, type AuditPage, type AuditQuery } from '../../src/modules/audit/index.js';
import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { refuseWrites } from '../support/refused-writes.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';
import { migratedDatabase } from '../support/test-databases.js';

/**
 * The audit log. The operator tool's commands and the application share one database, so the events of both land in one table: the last test reads every column of every event
 * for the keys the suite made. PostgreSQL's transactions: audit.postgres.int-spec.ts.
 */
const DATABASE_URL = (await migratedDatabase()).url;
const MANAGER: string[] = ['pets:read', 'pets:write', 'keys:manage'];
const UNREACHED = { perMinute: 1_000_000, perDay: 100_000_000 };
const FREE = { plan: 'free', limits: { perMinute: 60, perDay: 1_000 } };
const USAGE_HINT = /\nRun with --help to see the commands and their options\.\n$/;

describe('Audit log (e2e)', () => {
  let t: TestApp;
  let audit: AuditService;
  /** Every key the suite is shown, for the last test to look for. */
  const keysShown: string[] = [];

  const cli = (...args: string[]) => runCliInProcess(args, DATABASE_URL);
  const cliJson = async <T>(...args: string[]): Promise<T> => {
    const result = await cli(...args, '--json');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(result.stdout) as T;
  };
  const lastId = async () => (await audit.list({ limit: 1 })).items[0]?.id ?? 0;
  /** The events after `mark`, oldest first. */
  const since = async (mark: number) => (await audit.list({ limit: 100 })).items.filter(({ id }) => id > mark).reverse();
  /** Everything a change could touch (but `last_used_at`, which requests write on their own). */
  const rows = async () => ({
    clients: await t.dataSource.query('SELECT * FROM clients ORDER BY id'),
    keys: await t.dataSource.query('SELECT id, client_id, name, scopes, expires_at, revoked_at FROM api_keys ORDER BY id'),
    events: await t.dataSource.query('SELECT * FROM audit_events ORDER BY id'),
  });
  const newManager = async () => {
    const client = await t.app.get(ClientsService).create('Self-served', 'enterprise', UNREACHED, OPERATOR);
    const { key, apiKey } = await t.app.get(ApiKeysService).issue(client.id, { scopes: MANAGER }, OPERATOR);
    keysShown.push(key);
    return { clientId: client.id, keyId: apiKey.id, key };
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { DATABASE_URL } });
    audit = t.app.get(AuditService);
  });
  afterAll(() => t?.close());

  it('writes one event per change of the command-line tool, by cli, with the ids it touched and no request id', async () => {
    const mark = await lastId();
    const client = await cliJson<{ id: number }>('clients', 'create', '--name', 'Audited', '--plan', 'free');
    await cliJson('clients', 'set-plan', String(client.id), '--plan', 'enterprise', '--per-minute', '50', '--per-day', '500');
    const key = await cliJson<{ id: number; key: string; expiresAt: string }>(
      ...['keys', 'create', '--client', String(client.id), '--scopes', 'pets:read', '--expires-in', '1h'],
    );
    const bundled = await cliJson<{ id: number; clientId: number; key: string }>('keys', 'create', '--plan', 'free');
    keysShown.push(key.key, bundled.key);
    await cliJson('keys', 'revoke', String(key.id));
    // Changes nothing, so records nothing; nor do refused commands.
    expect(await cliJson('keys', 'revoke', String(key.id))).toMatchObject({ alreadyRevoked: true });
    expect((await cli('keys', 'revoke', '999999')).code).toBe(1);
    expect((await cli('clients', 'set-plan', '999999', '--plan', 'pro')).code).toBe(1);
    expect((await cli('keys', 'create', '--client', '999999')).code).toBe(1);
    expect((await cli('clients', 'create', '--name', 'X', '--plan', 'gold')).code).toBe(2);

    const byCli = { id: expect.any(Number), occurredAt: expect.any(String), actor: 'cli', requestId: null };
    const enterprise = { plan: 'enterprise', limits: { perMinute: 50, perDay: 500 } };
    expect(await since(mark)).toEqual([
      { ...byCli, action: 'client.created', clientId: client.id, keyId: null, details: FREE },
      { ...byCli, action: 'client.plan_changed', clientId: client.id, keyId: null, details: { from: FREE, to: enterprise } },
      {
        ...byCli,
        action: 'key.created',
        clientId: client.id,
        keyId: key.id,
        details: { name: '', scopes: ['pets:read'], expiresAt: key.expiresAt },
      },
      { ...byCli, action: 'client.created', clientId: bundled.clientId, keyId: null, details: FREE },
      {
        ...byCli,
        action: 'key.created',
        clientId: bundled.clientId,
        keyId: bundled.id,
        details: { name: '', scopes: ['pets:read', 'pets:write'], expiresAt: null },
      },
      { ...byCli, action: 'key.revoked', clientId: client.id, keyId: key.id, details: {} },
    ]);
  });

  it('writes one event per self-service change, by the calling key, with the request id', async () => {
    const manager = await newManager();
    const stranger = await newManager();
    const reader = (await t.app.get(ApiKeysService).issue(manager.clientId, { scopes: ['keys:manage'] }, OPERATOR)).key;
    keysShown.push(reader);
    const mark = await lastId();
    const as = (key: string, requestId?: string) => ({ Authorization: `Bearer ${key}`, ...(requestId && { 'X-Request-Id': requestId }) });

    const created = await t
      .http()
      .post('/v1/keys')
      .set(as(manager.key, 'audit-create'))
      .send({ name: 'ci', scopes: ['pets:read'] });
    const rolled = await t.http().post(`/v1/keys/${created.body.id}/roll`).set(as(manager.key, 'audit-roll')).send({ overlapSeconds: 60 });
    // The service makes the request id when the caller sends none.
    const revoked = await t.http().delete(`/v1/keys/${rolled.body.id}`).set(as(manager.key));
    const once = () =>
      t.http().post('/v1/keys').set(as(manager.key, 'audit-once')).set('Idempotency-Key', 'audit-once').send({ name: 'once' });
    const first = await once();
    const replayed = await once();
    expect([created.status, rolled.status, revoked.status, first.status, replayed.status]).toEqual([201, 201, 204, 201, 201]);
    expect(replayed.body).toEqual(first.body);
    keysShown.push(created.body.key, rolled.body.key, first.body.key);
    // Refusals change nothing and record nothing.
    const refusals = [
      await t.http().post('/v1/keys/999999/roll').set(as(manager.key)).send({}),
      await t.http().delete(`/v1/keys/${stranger.keyId}`).set(as(manager.key)),
      await t
        .http()
        .post('/v1/keys')
        .set(as(reader))
        .send({ name: 'writer', scopes: ['pets:write'] }),
      await t.http().post('/v1/keys').set(as(manager.key)).send({ name: '' }),
    ];
    expect(refusals.map((res) => res.status)).toEqual([404, 404, 403, 400]);

    const byManager = { id: expect.any(Number), occurredAt: expect.any(String), actor: `key:${manager.keyId}`, clientId: manager.clientId };
    expect(revoked.headers['x-request-id']).toEqual(expect.any(String));
    expect(await since(mark)).toEqual([
      {
        ...byManager,
        action: 'key.created',
        keyId: created.body.id,
        requestId: 'audit-create',
        details: { name: 'ci', scopes: ['pets:read'], expiresAt: null },
      },
      {
        ...byManager,
        action: 'key.rolled',
        keyId: created.body.id,
        requestId: 'audit-roll',
        details: { successorKeyId: rolled.body.id, overlapSeconds: 60 },
      },
      { ...byManager, action: 'key.revoked', keyId: rolled.body.id, requestId: revoked.headers['x-request-id'], details: {} },
      {
        ...byManager,
        action: 'key.created',
        keyId: first.body.id,
        requestId: 'audit-once',
        details: { name: 'once', scopes: ['pets:read', 'pets:write'], expiresAt: null },
      },
    ]);
  });

  describe('a change that fails', () => {
    const undo: Array<() => Promise<void>> = [];
    const refuse = async (operation: 'INSERT' | 'UPDATE', table: string) => undo.push(await refuseWrites(t.dataSource, operation, table));
    afterEach(async () => {
      for (const restore of undo.splice(0)) await restore();
    });

    it('writes no event and changes nothing when its own statement fails: the event is the last write of a change', async () => {
      const manager = await newManager();
      const { id: victim } = (await t.http().post('/v1/keys').set('Authorization', `Bearer ${manager.key}`).send({ name: 'v' })).body;
      const before = await rows();
      await refuse('UPDATE', 'clients');
      await refuse('UPDATE', 'api_keys');
      await refuse('INSERT', 'api_keys');
      const failed = await cli('clients', 'set-plan', String(manager.clientId), '--plan', 'pro');
      expect([failed.code, failed.stderr]).toEqual([1, expect.stringContaining('forced failure')]);
      expect((await cli('keys', 'revoke', String(victim))).code).toBe(1);
      const bearer = { Authorization: `Bearer ${manager.key}` };
      expect((await t.http().post('/v1/keys').set(bearer).send({ name: 'never' })).status).toBe(500);
      expect((await t.http().delete(`/v1/keys/${victim}`).set(bearer)).status).toBe(500);
      expect(await rows()).toEqual(before);
    });
  });

  describe('listing', () => {
    /** Follows `nextCursor` from the first page to the last: the ids in the order listed. */
    const walk = async (query: AuditQuery) => {
      const ids: number[] = [];
      let cursor: string | undefined;
      do {
        const page = await audit.list({ ...query, cursor, limit: 2 });
        ids.push(...page.items.map(({ id }) => id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return ids;
    };
    const stored = async (where = '1 = 1', parameters: unknown[] = []) =>
      (await t.dataSource.query<{ id: number }[]>(`SELECT id FROM audit_events WHERE ${where} ORDER BY id DESC`, parameters)).map(
        ({ id }) => id,
      );

    it('lists newest first, and a cursor walks every event exactly once, with and without filters', async () => {
      const { clientId } = await newManager();
      const all = await stored();
      expect(all.length).toBeGreaterThan(10);
      expect(await walk({})).toEqual(all);
      const { items } = await audit.list({ limit: 100 });
      const times = items.map(({ occurredAt }) => occurredAt);
      expect(times).toEqual([...times].sort().reverse());

      expect(await walk({ clientId })).toEqual(await stored('client_id = $1', [clientId]));
      expect(await walk({ action: 'key.created' })).toEqual(await stored(`action = 'key.created'`));
      const revocations = await stored(`action = 'key.revoked'`);
      expect(revocations.length).toBeGreaterThan(1);
      const [{ clientId: revokedOf }] = (await audit.list({ action: 'key.revoked', limit: 1 })).items;
      expect(await walk({ clientId: revokedOf!, action: 'key.revoked' })).toEqual(
        await stored(`client_id = $1 AND action = 'key.revoked'`, [revokedOf]),
      );
      expect(await walk({ clientId: 999_999 })).toEqual([]);
    });

    it('lists with the command-line tool: the same pages as one JSON object, or a table with the cursor of the next', async () => {
      const asked = { action: 'key.created', limit: 2 };
      const first = await cliJson<AuditPage>('audit', 'list', '--action', 'key.created', '--limit', '2');
      expect(first).toEqual(await audit.list(asked));
      const second = await cliJson<AuditPage>('audit', 'list', '--action', 'key.created', '--limit', '2', '--cursor', first.nextCursor!);
      expect(second).toEqual(await audit.list({ ...asked, cursor: first.nextCursor! }));
      expect(second.items[0].id).toBeLessThan(first.items[1].id);

      const text = await cli('audit', 'list', '--action', 'key.created', '--limit', '2');
      expect(text).toMatchObject({ code: 0, stderr: '' });
      const [header, newest, , more] = text.stdout.trimEnd().split('\n');
      expect(header).toMatch(/^ID\s+TIME\s+ACTOR\s+ACTION\s+CLIENT\s+KEY\s+REQUEST\s+DETAILS$/);
      const shown: AuditEventView = first.items[0];
      expect(newest).toMatch(new RegExp(`^${shown.id}\\s+${shown.occurredAt}\\s+${shown.actor}\\s+key\\.created\\s+${shown.clientId}\\s`));
      expect(more).toBe(`Older events: --cursor ${first.nextCursor}`);
      expect((await cli('audit', 'list', '--client', '999999')).stdout).toBe('No audit events.\n');
      expect((await cli('--help')).stdout).toContain(
        'audit list [--client CLIENT_ID] [--action ACTION] [--limit N] [--cursor CURSOR] [--json]',
      );
    });

    it('refuses a bad cursor or filter: the Error object (400) from the service, a usage error (exit 2) from the tool', async () => {
      const refused: unknown = await audit.list({ cursor: 'not-a-cursor' }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ValidationFailedException);
      expect((refused as ValidationFailedException).toBody()).toEqual({
        code: 'validation_failed',
        message: 'The request has invalid values.',
        status: 400,
        details: [{ field: 'cursor', message: 'cursor is malformed or continues another listing; pass the one the page before gave' }],
      });

      const { nextCursor } = await audit.list({ limit: 1 });
      const bad: [string[], RegExp][] = [
        [['--cursor', 'not-a-cursor'], /^error: --cursor is malformed or continues another listing/],
        [['--action', 'key.created', '--cursor', nextCursor!], /^error: --cursor is malformed or continues another listing/],
        [['--action', 'pets.created'], /^error: --action must be one of client\.created, .*, admin_token\.revoked\./],
        [['--limit', '1000'], /^error: --limit must be an integer from 1 to 100\./],
        [['--client', 'me'], /^error: --client must be a positive integer \(got "me"\)\./],
      ];
      for (const [args, message] of bad) {
        const result = await cli('audit', 'list', ...args);
        expect({ args, ...result }).toEqual({ args, code: 2, stdout: '', stderr: expect.stringMatching(message) });
        expect(result.stderr).toMatch(USAGE_HINT);
      }
    });
  });

  it('holds no secret in any column of any event: no key, no part of one, no hash', async () => {
    const events: Record<string, unknown>[] = await t.dataSource.query('SELECT * FROM audit_events');
    const actions = new Set(events.map(({ action }) => action));
    expect([...actions].sort()).toEqual(['client.created', 'client.plan_changed', 'key.created', 'key.revoked', 'key.rolled']);
    expect(keysShown.length).toBeGreaterThanOrEqual(10);

    const stored = events.flatMap((event) => Object.values(event).map(String)).join('\n');
    for (const key of keysShown) {
      for (const secret of [key, key.slice('pets_'.length, -6), createHash('sha256').update(key).digest('hex')]) {
        expect(stored).not.toContain(secret);
      }
    }
    // Nor anything shaped like a key or a SHA-256, whoever made it.
    expect(stored).not.toMatch(/pets_[0-9A-Za-z]{38}/);
    expect(stored).not.toMatch(/[0-9a-f]{64}/i);
  });
});
