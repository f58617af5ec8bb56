import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCliInProcess, type CliResult } from '../support/cli-in-process.js';
import { createAdminTestApp } from '../admin/admin-app.js';
import { FakeClock } from '../support/fake-clock.js';
import { createTestApp } from '../support/test-app.js';
import { emptyDatabase, migratedDatabase, queryDatabase, tablesIn } from '../support/test-databases.js';

/**
 * The operator tool, on a database of the suite's own that the application then opens too. Its commands run in
 * this process through `runCli()`, the function the built `dist/src/cli.js` hands its arguments to
 * (it only sets the exit code it returns), with what they write captured: the same parsing, output
 * and exit codes, without a new process per command. A process pays Nest's and TypeORM's start-up,
 * about 2 s of CPU: sixty of them made this the slowest suite by far, and on a busy machine the one
 * that ran out of time. The built binary runs as a real process where only a process shows the
 * behaviour: the exit code it ends with, stdout carrying nothing but the output, help and bad
 * arguments answered without opening the database, a bad configuration named.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist/src/cli.js');
const KEY_PATTERN = /^pets_[0-9A-Za-z]{38}$/;
const HOUR_MS = 3_600_000;
/**
 * Bound of the hook that runs the built binary's processes (together): each loads Nest and
 * TypeORM, which on a machine whose CPUs are busy with other work takes several times as long.
 */
const PROCESSES_MS = 60_000;

const DATABASE_URL = (await migratedDatabase()).url;

/** The built tool as operators run it: `node dist/src/cli.js ARGS` with DATABASE_URL. */
function binary(args: string[], databaseUrl: string): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}

/** A command line run in this process, on the suite's database unless told otherwise. */
function cli(args: string[], databaseUrl = DATABASE_URL): Promise<CliResult> {
  return runCliInProcess(args, databaseUrl);
}

/** Runs a command that must succeed with --json, and returns its one JSON object. */
async function cliJson<T = Record<string, unknown>>(...args: string[]): Promise<T> {
  const result = await cli([...args, '--json']);
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(result.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(result.stdout) as T;
}

interface ClientJson {
  id: number;
  name: string;
  plan: string;
  limits: { perMinute: number; perDay: number };
  createdAt: string;
}

interface KeyJson {
  id: number;
  clientId: number;
  plan: string;
  key: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
}

/** Everything the tool can see in the database. */
async function snapshot(): Promise<{ clients: unknown; keys: unknown }> {
  return { clients: await cliJson('clients', 'list'), keys: await cliJson('keys', 'list') };
}

describe('the built operator tool (node dist/src/cli.js, a process per command)', () => {
  let issued: string;
  let untouched: string;
  const runs: Record<'help' | 'created' | 'refused' | 'misconfigured', CliResult> = {} as never;

  // Independent processes on databases of their own, started together: on a busy machine they
  // wait for the CPU side by side rather than one after the other.
  beforeAll(async () => {
    [issued, untouched] = await Promise.all([emptyDatabase(), emptyDatabase()]);
    const [help, created, refused, misconfigured] = await Promise.all([
      binary(['--help'], 'mysql://db'),
      binary(['keys', 'create', '--plan', 'free', '--json'], issued),
      binary(['clients', 'create', '--name', 'X', '--plan', 'enterprise'], untouched),
      binary(['clients', 'list'], 'mysql://db'),
    ]);
    Object.assign(runs, { help, created, refused, misconfigured });
  }, PROCESSES_MS);

  it('prints its usage with --help and exits 0, without reading the configuration', () => {
    expect(runs.help).toMatchObject({ code: 0, stderr: '' });
    expect(runs.help.stdout).toContain('keys create --client CLIENT_ID [--scopes SCOPES] [--expires-in DURATION] [--json]');
  });

  it('carries out a command and exits 0, with exactly its JSON object on stdout and nothing on stderr', async () => {
    expect(runs.created).toMatchObject({ code: 0, stderr: '' });
    expect(runs.created.stdout).toMatch(/^\{.*\}\n$/);
    const created = JSON.parse(runs.created.stdout) as KeyJson;
    expect(created).toMatchObject({ plan: 'free', key: expect.stringMatching(KEY_PATTERN) });
    // Written to the database DATABASE_URL names.
    const listed = await cli(['keys', 'list', '--json'], issued);
    expect(JSON.parse(listed.stdout)).toEqual({ keys: [expect.objectContaining({ id: created.id, prefix: created.prefix })] });
  });

  it('exits 2 for bad arguments, with a hint on stderr, without even opening the database', async () => {
    expect(runs.refused).toMatchObject({ code: 2, stdout: '' });
    expect(runs.refused.stderr).toMatch(
      /^error: .*enterprise plan needs both --per-minute and --per-day.*\nRun with --help to see the commands and their options\.\n$/,
    );
    await expect(tablesIn(untouched)).resolves.toEqual([]);
  });

  it('exits 1 when it cannot carry a command out, here for a bad configuration, named in one line on stderr', () => {
    expect(runs.misconfigured.code).toBe(1);
    expect(runs.misconfigured.stdout).toBe('');
    expect(runs.misconfigured.stderr).toMatch(
      /\nerror: Could not start: Invalid configuration:\n {2}- DATABASE_URL must be .*\(got "mysql:\/\/db"\)\n$/,
    );
  });
});

describe('operator command-line tool (its commands, on a database the application opens too)', () => {
  it('prints its usage with --help and help, after a command too, and exits 0', async () => {
    for (const args of [['--help'], ['help'], ['-h'], ['keys', 'create', '--help'], ['clients', 'create', '--name', 'x', '-h']]) {
      const result = await cli(args);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toContain('keys create --client CLIENT_ID [--scopes SCOPES] [--expires-in DURATION] [--json]');
    }
  });

  describe('clients', () => {
    it('creates a client and prints it as one JSON object', async () => {
      const client = await cliJson<ClientJson>('clients', 'create', '--name', 'Happy Paws', '--plan', 'pro');
      expect(client).toEqual({
        id: expect.any(Number),
        name: 'Happy Paws',
        plan: 'pro',
        limits: { perMinute: 300, perDay: 10_000 },
        createdAt: expect.any(String),
      });
      expect(Number.isNaN(Date.parse(client.createdAt))).toBe(false);
    });

    it('creates an enterprise client with its own limits, a minute limit above the day limit included', async () => {
      const client = await cliJson<ClientJson>(
        'clients',
        'create',
        '--name',
        'Big Shelter',
        '--plan',
        'enterprise',
        '--per-minute',
        '5000',
        '--per-day',
        '100',
      );
      expect(client).toMatchObject({ plan: 'enterprise', limits: { perMinute: 5000, perDay: 100 } });
    });

    it('says what it created in a short line without --json', async () => {
      const result = await cli(['clients', 'create', '--name', 'Text Rescue', '--plan', 'business']);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^Created client \d+ "Text Rescue" on plan business \(1000\/min, 100000\/day\)\.\n$/);
    });

    it('lists clients as one JSON object and as a table', async () => {
      const created = await cliJson<ClientJson>('clients', 'create', '--name', 'Listed', '--plan', 'free');
      const { clients } = await cliJson<{ clients: ClientJson[] }>('clients', 'list');
      expect(clients).toContainEqual(created);
      expect(clients.map((client) => client.id)).toEqual([...clients.map((client) => client.id)].sort((a, b) => a - b));

      const text = await cli(['clients', 'list']);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^ID\s+NAME\s+PLAN\s+PER MINUTE\s+PER DAY\s+CREATED\n/);
      expect(text.stdout).toMatch(new RegExp(`^${created.id}\\s+Listed\\s+free\\s+60\\s+1000\\s`, 'm'));
    });

    it('moves a client to another plan, and to enterprise with limits', async () => {
      const { id } = await cliJson<ClientJson>('clients', 'create', '--name', 'Mover', '--plan', 'free');
      expect(await cliJson('clients', 'set-plan', String(id), '--plan', 'business')).toMatchObject({
        id,
        plan: 'business',
        limits: { perMinute: 1000, perDay: 100_000 },
      });

      const text = await cli(['clients', 'set-plan', String(id), '--plan', 'enterprise', '--per-minute', '7', '--per-day', '70']);
      expect(text).toMatchObject({ code: 0, stderr: '' });
      expect(text.stdout).toBe(`Client ${id} "Mover" is now on plan enterprise (7/min, 70/day).\n`);
      const { clients } = await cliJson<{ clients: ClientJson[] }>('clients', 'list');
      expect(clients.find((client) => client.id === id)).toMatchObject({ plan: 'enterprise', limits: { perMinute: 7, perDay: 70 } });
    });
  });

  describe('keys', () => {
    it('creates a key for an existing client and shows it once, logging nothing', async () => {
      const client = await cliJson<ClientJson>('clients', 'create', '--name', 'Key Owner', '--plan', 'pro');
      const created = await cliJson<KeyJson>('keys', 'create', '--client', String(client.id));
      expect(Object.keys(created).sort()).toEqual([
        'clientId',
        'createdAt',
        'expiresAt',
        'id',
        'key',
        'lastUsedAt',
        'name',
        'plan',
        'prefix',
        'revokedAt',
        'scopes',
      ]);
      expect(created).toMatchObject({ clientId: client.id, plan: 'pro', scopes: ['pets:read', 'pets:write'], expiresAt: null });
      expect(created.key).toMatch(KEY_PATTERN);
      expect(created.key.startsWith(created.prefix)).toBe(true);

      const text = await cli(['keys', 'create', '--client', String(client.id)]);
      expect(text).toMatchObject({ code: 0, stderr: '' });
      const [summary, key, warning] = text.stdout.trimEnd().split('\n');
      expect(summary).toMatch(
        new RegExp(
          `^Created key \\d+ \\(pets_\\w+\\.\\.\\.\\) for client ${client.id} "Key Owner" on plan pro .*, with scopes pets:read pets:write, expiring never\\.$`,
        ),
      );
      expect(key).toMatch(KEY_PATTERN);
      expect(warning).toMatch(/shown only this once/);
    });

    it("announces the key it creates to the client's webhooks: a key.created event, written with the key, without its secret", async () => {
      const created = await cliJson<KeyJson>('keys', 'create', '--plan', 'free', '--name', 'Announced');
      const events = await queryDatabase<{ type: string; body: string }>(
        DATABASE_URL,
        `SELECT type, body FROM webhook_events WHERE client_id = ${created.clientId} ORDER BY created_at`,
      );
      expect(events.map(({ type }) => type)).toEqual(['key.created']);
      const { id, name, prefix, scopes, expiresAt } = created as KeyJson & { name: string };
      expect(JSON.parse(events[0].body)).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: 'key.created',
        createdAt: expect.any(String),
        data: { id, name, prefix, scopes, expiresAt },
      });
      expect(events[0].body).not.toContain(created.key);
      expect(events[0].body).not.toContain(createHash('sha256').update(created.key).digest('hex'));
    });

    it('creates a key together with a new client with --plan', async () => {
      const created = await cliJson<KeyJson>(
        'keys',
        'create',
        '--plan',
        'enterprise',
        '--name',
        'Key First',
        '--per-minute',
        '40',
        '--per-day',
        '400',
      );
      expect(created).toMatchObject({ plan: 'enterprise', key: expect.stringMatching(KEY_PATTERN) });
      const { clients } = await cliJson<{ clients: ClientJson[] }>('clients', 'list');
      expect(clients.find((client) => client.id === created.clientId)).toMatchObject({
        name: 'Key First',
        plan: 'enterprise',
        limits: { perMinute: 40, perDay: 400 },
      });

      const unnamed = await cliJson<KeyJson>('keys', 'create', '--plan', 'free');
      expect(
        (await cliJson<{ clients: ClientJson[] }>('clients', 'list')).clients.find((client) => client.id === unnamed.clientId),
      ).toMatchObject({ name: 'free client', plan: 'free' });
    });

    it('gives a key an expiry in the future with --expires-in', async () => {
      const before = Date.now();
      const created = await cliJson<KeyJson>('keys', 'create', '--plan', 'free', '--expires-in', '12h');
      const expiresAt = Date.parse(created.expiresAt ?? '');
      expect(expiresAt).toBeGreaterThanOrEqual(before + 12 * HOUR_MS);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 12 * HOUR_MS);
      const { keys } = await cliJson<{ keys: KeyJson[] }>('keys', 'list', '--client', String(created.clientId));
      expect(keys).toEqual([expect.objectContaining({ id: created.id, expiresAt: created.expiresAt })]);
    });

    it('lists keys by prefix only, never the key or its hash', async () => {
      const created = await cliJson<KeyJson>('keys', 'create', '--plan', 'pro');
      const secrets = [created.key, createHash('sha256').update(created.key).digest('hex')];

      const json = await cli(['keys', 'list', '--client', String(created.clientId), '--json']);
      const { keys } = JSON.parse(json.stdout) as { keys: Record<string, unknown>[] };
      expect(keys).toEqual([
        {
          id: created.id,
          clientId: created.clientId,
          name: '',
          prefix: created.prefix,
          scopes: ['pets:read', 'pets:write'],
          createdAt: created.createdAt,
          expiresAt: null,
          revokedAt: null,
          lastUsedAt: null,
        },
      ]);
      const all = await cli(['keys', 'list', '--json']);
      const text = await cli(['keys', 'list']);
      expect(text.stdout).toMatch(/^ID\s+CLIENT\s+NAME\s+PREFIX\s+SCOPES\s+CREATED\s/);
      expect(text.stdout).toMatch(
        new RegExp(`^${created.id}\\s+${created.clientId}\\s+-\\s+${created.prefix}\\s+pets:read pets:write\\s`, 'm'),
      );
      for (const output of [json, all, text]) {
        for (const secret of secrets) expect(output.stdout).not.toContain(secret);
      }
    });

    it('gives a key the scopes of --scopes, with --client and with --plan, listed in catalogue order', async () => {
      const client = await cliJson<ClientJson>('clients', 'create', '--name', 'Scoped', '--plan', 'pro');
      const manager = await cliJson<KeyJson>('keys', 'create', '--client', String(client.id), '--scopes', 'keys:manage,pets:read');
      expect(manager.scopes).toEqual(['pets:read', 'keys:manage']);
      const writer = await cliJson<KeyJson>('keys', 'create', '--plan', 'free', '--scopes', 'pets:write');
      expect(writer.scopes).toEqual(['pets:write']);

      const { keys } = await cliJson<{ keys: KeyJson[] }>('keys', 'list', '--client', String(client.id));
      expect(keys).toEqual([expect.objectContaining({ id: manager.id, scopes: ['pets:read', 'keys:manage'] })]);
      const text = await cli(['keys', 'create', '--client', String(client.id), '--scopes', 'pets:read']);
      expect(text.stdout).toMatch(/, with scopes pets:read, expiring never\.\n/);
      expect((await cli(['keys', 'list'])).stdout).toMatch(
        new RegExp(`^${manager.id}\\s+${client.id}\\s+-\\s+${manager.prefix}\\s+pets:read keys:manage\\s`, 'm'),
      );
    });

    it('revokes a key, and a second time too, saying it already was', async () => {
      const { id } = await cliJson<KeyJson>('keys', 'create', '--plan', 'free');
      expect(await cliJson('keys', 'revoke', String(id))).toEqual({ id, revoked: true, alreadyRevoked: false });
      expect(await cliJson('keys', 'revoke', String(id))).toEqual({ id, revoked: true, alreadyRevoked: true });

      const text = await cli(['keys', 'revoke', String(id)]);
      expect(text).toMatchObject({ code: 0, stdout: `Key ${id} was already revoked; nothing to do.\n` });
      const { keys } = await cliJson<{ keys: { id: number; revokedAt: string | null }[] }>('keys', 'list');
      expect(keys.find((key) => key.id === id)?.revokedAt).toEqual(expect.any(String));
    });
  });

  describe('failures', () => {
    const unknownIds: [string[], string][] = [
      [['keys', 'revoke', '999999'], 'error: No API key with id 999999; nothing was revoked.\n'],
      [['keys', 'create', '--client', '999999'], 'error: No client with id 999999.\n'],
      [['keys', 'list', '--client', '999999'], 'error: No client with id 999999.\n'],
      [['clients', 'set-plan', '999999', '--plan', 'pro'], 'error: No client with id 999999.\n'],
    ];

    it('refuses unknown ids with exit code 1 and a clear message, changing nothing', async () => {
      await cliJson('keys', 'create', '--plan', 'free');
      const before = await snapshot();
      const results: CliResult[] = [];
      for (const [args] of unknownIds) results.push(await cli(args));
      expect(results).toEqual(unknownIds.map(([, stderr]) => ({ code: 1, stdout: '', stderr })));
      expect(await snapshot()).toEqual(before);
    });

    const badArguments: [string, string[], RegExp][] = [
      ['no command', [], /No command given/],
      ['an unknown command', ['clients', 'delete', '1'], /Unknown command "clients delete"/],
      ['an unknown option', ['clients', 'list', '--all'], /Unknown option '--all'/],
      ['a missing value', ['clients', 'create', '--name', 'X', '--plan'], /Option '--plan <value>' argument missing/],
      ['a missing name', ['clients', 'create', '--plan', 'free'], /--name is required/],
      ['an unknown plan', ['clients', 'create', '--name', 'X', '--plan', 'gold'], /Unknown plan "gold"/],
      [
        'enterprise without limits',
        ['clients', 'create', '--name', 'X', '--plan', 'enterprise'],
        /enterprise plan needs both --per-minute and --per-day/,
      ],
      ['enterprise with half the limits', ['keys', 'create', '--plan', 'enterprise', '--per-day', '10'], /enterprise plan needs both/],
      [
        'free with limits',
        ['clients', 'create', '--name', 'X', '--plan', 'free', '--per-minute', '5', '--per-day', '50'],
        /free plan has fixed limits/,
      ],
      [
        'a limit that is not a positive integer',
        ['clients', 'create', '--name', 'X', '--plan', 'enterprise', '--per-minute', '0', '--per-day', '5'],
        /--per-minute must be a positive integer/,
      ],
      [
        'a client id that is not a positive integer',
        ['clients', 'set-plan', 'one', '--plan', 'pro'],
        /CLIENT_ID must be a positive integer/,
      ],
      ['a key id that is not a positive integer', ['keys', 'revoke', '1.5'], /KEY_ID must be a positive integer/],
      ['a --client that is not a positive integer', ['keys', 'create', '--client', '-'], /--client must be a positive integer/],
      ['--client with --plan', ['keys', 'create', '--client', '1', '--plan', 'pro'], /--client and --plan cannot be used together/],
      ['a bad duration', ['keys', 'create', '--plan', 'free', '--expires-in', '2w'], /--expires-in must be a positive number and a unit/],
      [
        'a duration without unit',
        ['keys', 'create', '--plan', 'free', '--expires-in', '30'],
        /--expires-in must be a positive number and a unit/,
      ],
      [
        'an unknown scope',
        ['keys', 'create', '--plan', 'free', '--scopes', 'pets:read,pets:delete'],
        /Unknown scope "pets:delete" in --scopes/,
      ],
      ['an empty list of scopes', ['keys', 'create', '--client', '1', '--scopes', ''], /--scopes needs at least one scope/],
      ['an extra argument', ['keys', 'revoke', '1', '2'], /Unexpected argument "2"/],
    ];

    it('refuses bad arguments with exit code 2 and a hint, writing nothing', async () => {
      await cliJson('clients', 'create', '--name', 'Bystander', '--plan', 'free');
      const before = await snapshot();
      for (const [what, args, message] of badArguments) {
        const result = await cli(args);
        expect({ what, ...result }).toEqual({
          what,
          code: 2,
          stdout: '',
          stderr: expect.stringMatching(/^error: .*\nRun with --help to see the commands and their options\.\n$/),
        });
        expect({ what, stderr: result.stderr }).toEqual({ what, stderr: expect.stringMatching(message) });
      }
      expect(await snapshot()).toEqual(before);
    });
  });

  it('makes keys that the application accepts, within their scopes, until they are revoked', async () => {
    const { id, key } = await cliJson<KeyJson>('keys', 'create', '--plan', 'free');
    const reader = await cliJson<KeyJson>('keys', 'create', '--plan', 'free', '--scopes', 'pets:read');
    const env = { DATABASE_URL };

    const first = await createTestApp({ env });
    try {
      const res = await first.http().get('/v1/pets').set('Authorization', `Bearer ${key}`);
      expect(res.status).toBe(200);
      const asReader = { Authorization: `Bearer ${reader.key}` };
      expect((await first.http().get('/v1/pets').set(asReader)).status).toBe(200);
      const refused = await first.http().post('/v1/pets').set(asReader).send({ name: 'Rex', categoryId: 1 });
      expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_scope']);
    } finally {
      await first.close();
    }

    expect(await cliJson('keys', 'revoke', String(id))).toEqual({ id, revoked: true, alreadyRevoked: false });

    const second = await createTestApp({ env });
    try {
      const res = await second.http().get('/v1/pets').set('Authorization', `Bearer ${key}`);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'invalid_api_key', status: 401 });
    } finally {
      await second.close();
    }
  });

  describe('admin tokens', () => {
    interface AdminTokenJson {
      id: number;
      name: string;
      prefix: string;
      createdAt: string;
      revokedAt: string | null;
      token?: string;
    }
    const TOKEN_PATTERN = /^pets_admin_[0-9A-Za-z]{38}$/;

    it('creates a token shown once, lists tokens by prefix only, and revokes one: the admin API refuses it within the bound', async () => {
      const created = await cliJson<AdminTokenJson>('admin-tokens', 'create', '--name', 'ops');
      expect(created).toEqual({
        id: expect.any(Number),
        name: 'ops',
        prefix: created.token!.slice(0, 19),
        createdAt: expect.any(String),
        revokedAt: null,
        token: expect.stringMatching(TOKEN_PATTERN),
      });
      const text = await cli(['admin-tokens', 'create', '--name', 'second']);
      const [summary, token, warning] = text.stdout.trimEnd().split('\n');
      expect(summary).toMatch(/^Created admin token \d+ "second" \(pets_admin_\w{8}\.\.\.\)\.$/);
      expect([token, warning]).toEqual([expect.stringMatching(TOKEN_PATTERN), expect.stringMatching(/shown only this once/)]);

      const secrets = [
        created.token!,
        token,
        ...[created.token!, token].map((secret) => createHash('sha256').update(secret).digest('hex')),
      ];
      const listed = await cli(['admin-tokens', 'list', '--json']);
      const table = await cli(['admin-tokens', 'list']);
      expect((JSON.parse(listed.stdout) as { adminTokens: AdminTokenJson[] }).adminTokens).toContainEqual({ ...created, token: undefined });
      expect(table.stdout).toMatch(new RegExp(`^${created.id}\\s+ops\\s+${created.prefix}\\s`, 'm'));
      for (const output of [listed.stdout, table.stdout]) for (const secret of secrets) expect(output).not.toContain(secret);

      const clock = new FakeClock(new Date());
      const app = await createAdminTestApp({ env: { DATABASE_URL }, clock });
      try {
        const asOperator = { Authorization: `Bearer ${created.token}` };
        expect((await app.admin().get('/admin/v1/clients').set(asOperator)).status).toBe(200);
        expect(await cliJson('admin-tokens', 'revoke', String(created.id))).toEqual({
          id: created.id,
          revoked: true,
          alreadyRevoked: false,
        });
        expect(await cliJson('admin-tokens', 'revoke', String(created.id))).toEqual({
          id: created.id,
          revoked: true,
          alreadyRevoked: true,
        });
        clock.advance(4_001);
        const refused = await app.admin().get('/admin/v1/clients').set(asOperator);
        expect([refused.status, refused.body.code]).toEqual([401, 'invalid_admin_token']);
      } finally {
        await app.close();
      }
      const revoked = (JSON.parse((await cli(['admin-tokens', 'list', '--json'])).stdout) as { adminTokens: AdminTokenJson[] }).adminTokens;
      expect(revoked.find(({ id }) => id === created.id)?.revokedAt).toEqual(expect.any(String));
    });

    it('refuses an unknown token id with exit code 1', async () => {
      expect(await cli(['admin-tokens', 'revoke', '999999'])).toEqual({
        code: 1,
        stdout: '',
        stderr: 'error: No admin token with id 999999; nothing was revoked.\n',
      });
    });
  });
});
