import { encodeCursor } from '../common/index.js';
import { UsageError } from '../common/index.js';
import { parseCommand } from './parse-command.js';
import { SCOPE_NAMES } from './server-catalogues.js';

/** Every module's scopes, as the server gathers them: a new module's scope joins the list without an edit here. */
const SCOPES = SCOPE_NAMES.join(', ');

/** The UsageError that parsing `argv` throws. */
function refusal(argv: string[]): UsageError {
  try {
    parseCommand(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error(`expected ${JSON.stringify(argv)} to be refused`);
}

describe('parseCommand', () => {
  describe('commands', () => {
    it.each([
      [[], /No command given/],
      [['pets', 'list'], /Unknown command "pets"; the commands are clients, keys, audit, usage, admin-tokens, and webhooks\./],
      [['audit'], /"audit" needs one of: list/],
      [['clients'], /"clients" needs one of: create, set-plan, get, list/],
      [['keys'], /"keys" needs one of: create, list, roll, revoke/],
      [['admin-tokens'], /"admin-tokens" needs one of: create, list, revoke/],
      [['clients', 'delete'], /Unknown command "clients delete"/],
      [['keys', 'rotate'], /Unknown command "keys rotate"/],
      [['--json', 'clients', 'list'], /Unknown command "--json"/],
      [['clients', 'toString'], /Unknown command "clients toString"/],
      [['clients create', '--name', 'x', '--plan', 'free'], /Unknown command "clients create"; the commands are/],
      [['usage list', '--client', '1'], /Unknown command "usage list"/],
    ])('refuses %j', (argv, message) => {
      expect(refusal(argv).message).toMatch(message);
    });
  });

  describe('clients create', () => {
    it('reads the name and a plan with fixed limits', () => {
      expect(parseCommand(['clients', 'create', '--name', '  Acme Rescue ', '--plan', 'pro'])).toEqual({
        kind: 'clients create',
        name: 'Acme Rescue',
        choice: { plan: 'pro' },
        json: false,
      });
    });

    it('reads enterprise limits in any order, a minute limit above the day limit included', () => {
      expect(
        parseCommand(['clients', 'create', '--json', '--per-day=100', '--plan=enterprise', '--per-minute', '5000', '--name=Big']),
      ).toEqual({
        kind: 'clients create',
        name: 'Big',
        choice: { plan: 'enterprise', limits: { perMinute: 5000, perDay: 100 } },
        json: true,
      });
    });

    it.each([
      [['--plan', 'free'], /--name is required/],
      [['--name', 'Acme'], /--plan is required/],
      [['--name'], /Option '--name <value>' argument missing/],
      [['--name', '--plan', 'free'], /Option '--name' argument is ambiguous/],
      [['--name', '   ', '--plan', 'free'], /--name must be 1 to 200 characters/],
      [['--name', 'x'.repeat(201), '--plan', 'free'], /--name must be 1 to 200 characters/],
      [['--name', 'Acme', '--plan', 'gold'], /Unknown plan "gold"; choose one of free, pro, business, enterprise/],
      [['--name', 'Acme', '--plan', 'Free'], /Unknown plan "Free"/],
      [['--name', 'Acme', '--plan', 'enterprise'], /The enterprise plan needs both --per-minute and --per-day/],
      [['--name', 'Acme', '--plan', 'enterprise', '--per-minute', '10'], /needs both --per-minute and --per-day/],
      [['--name', 'Acme', '--plan', 'enterprise', '--per-day', '10'], /needs both --per-minute and --per-day/],
      [['--name', 'Acme', '--plan', 'free', '--per-minute', '10', '--per-day', '100'], /The free plan has fixed limits/],
      [['--name', 'Acme', '--plan', 'business', '--per-day', '100'], /The business plan has fixed limits/],
      [
        ['--name', 'Acme', '--plan', 'enterprise', '--per-minute', '0', '--per-day', '10'],
        /--per-minute must be a positive integer \(got "0"\)/,
      ],
      [['--name', 'Acme', '--plan', 'enterprise', '--per-minute=-5', '--per-day', '10'], /--per-minute must be a positive integer/],
      [['--name', 'Acme', '--plan', 'enterprise', '--per-minute', '10', '--per-day', '1.5'], /--per-day must be a positive integer/],
      [['--name', 'Acme', '--plan', 'enterprise', '--per-minute', '1e3', '--per-day', '10'], /--per-minute must be a positive integer/],
      [
        ['--name', 'Acme', '--plan', 'enterprise', '--per-minute', '10', '--per-day', '9007199254740992'],
        /--per-day must be a positive integer/,
      ],
      [['--name', 'Acme', '--plan', 'enterprise', '--per-minute', 'many', '--per-day', '10'], /--per-minute must be a positive integer/],
      [['--name', 'Acme', '--plan', 'pro', '--client', '3'], /Unknown option '--client'\.$/],
      [['--name', 'Acme', '--plan', 'pro', 'extra'], /Unexpected argument "extra"/],
      [['--name', 'Acme', '--name', 'Other', '--plan', 'pro'], /--name is given more than once/],
      [['--name', 'Acme', '--plan', 'pro', '--json=yes'], /Option '--json' does not take an argument/],
    ])('refuses %j', (args, message) => {
      expect(refusal(['clients', 'create', ...args]).message).toMatch(message);
    });
  });

  describe('clients set-plan', () => {
    it('reads the client id and the plan, options before or after the id', () => {
      const expected = { kind: 'clients set-plan', clientId: 42, choice: { plan: 'business' }, json: false };
      expect(parseCommand(['clients', 'set-plan', '42', '--plan', 'business'])).toEqual(expected);
      expect(parseCommand(['clients', 'set-plan', '--plan', 'business', '42'])).toEqual(expected);
    });

    it('reads enterprise limits and --json', () => {
      expect(parseCommand(['clients', 'set-plan', '7', '--plan', 'enterprise', '--per-minute', '20', '--per-day', '30', '--json'])).toEqual(
        {
          kind: 'clients set-plan',
          clientId: 7,
          choice: { plan: 'enterprise', limits: { perMinute: 20, perDay: 30 } },
          json: true,
        },
      );
    });

    it.each([
      [['--plan', 'pro'], /Missing CLIENT_ID/],
      [['abc', '--plan', 'pro'], /CLIENT_ID must be a positive integer \(got "abc"\)/],
      [['0', '--plan', 'pro'], /CLIENT_ID must be a positive integer/],
      [['1.0', '--plan', 'pro'], /CLIENT_ID must be a positive integer/],
      [['-1', '--plan', 'pro'], /Unknown option '-1'/],
      [['1', '2', '--plan', 'pro'], /Unexpected argument "2"/],
      [['1'], /--plan is required/],
      [['1', '--plan', 'enterprise'], /needs both --per-minute and --per-day/],
      [['1', '--plan', 'pro', '--per-minute', '5', '--per-day', '10'], /The pro plan has fixed limits/],
      [['1', '--plan', 'pro', '--name', 'x'], /Unknown option '--name'/],
    ])('refuses %j', (args, message) => {
      expect(refusal(['clients', 'set-plan', ...args]).message).toMatch(message);
    });
  });

  describe('clients get', () => {
    it('reads the client id', () => {
      expect(parseCommand(['clients', 'get', '7', '--json'])).toEqual({ kind: 'clients get', clientId: 7, json: true });
    });

    it.each([
      [[], /Missing CLIENT_ID/],
      [['x'], /CLIENT_ID must be a positive integer/],
    ])('refuses %j', (args, message) => {
      expect(refusal(['clients', 'get', ...args]).message).toMatch(message);
    });
  });

  describe('clients list', () => {
    it('lists every client, or a page with --limit and --cursor', () => {
      expect(parseCommand(['clients', 'list'])).toEqual({ kind: 'clients list', json: false });
      expect(parseCommand(['clients', 'list', '--json'])).toEqual({ kind: 'clients list', json: true });
      expect(parseCommand(['clients', 'list', '--limit', '100'])).toEqual({ kind: 'clients list', page: { limit: 100 }, json: false });
      expect(parseCommand(['clients', 'list', '--cursor', 'abc.def'])).toEqual({
        kind: 'clients list',
        page: { cursor: 'abc.def' },
        json: false,
      });
    });

    it.each([
      [['--limit', '0'], /--limit must be a positive integer/],
      [['--limit', '101'], /--limit must be at most 100 \(got "101"\)/],
      [['--cursor'], /Option '--cursor <value>' argument missing/],
      [['--plan', 'pro'], /Unknown option '--plan'/],
      [['all'], /Unexpected argument "all"/],
      [['--json', '--json'], /--json is given more than once/],
    ])('refuses %j', (args, message) => {
      expect(refusal(['clients', 'list', ...args]).message).toMatch(message);
    });
  });

  describe('keys create', () => {
    it('makes a key for an existing client', () => {
      expect(parseCommand(['keys', 'create', '--client', '3'])).toEqual({
        kind: 'keys create',
        owner: { clientId: 3 },
        expiresInMs: undefined,
        json: false,
      });
    });

    it.each([
      ['90s', 90_000],
      ['45m', 45 * 60_000],
      ['12h', 12 * 3_600_000],
      ['30d', 30 * 86_400_000],
      ['36500d', 36_500 * 86_400_000],
    ])('reads --expires-in %s', (duration, ms) => {
      expect(parseCommand(['keys', 'create', '--client', '3', '--expires-in', duration, '--json'])).toEqual({
        kind: 'keys create',
        owner: { clientId: 3 },
        expiresInMs: ms,
        json: true,
      });
    });

    it('makes a key and a new client with --plan, named after the plan by default', () => {
      expect(parseCommand(['keys', 'create', '--plan', 'free'])).toEqual({
        kind: 'keys create',
        owner: { newClient: { name: 'free client', plan: 'free' } },
        expiresInMs: undefined,
        json: false,
      });
    });

    it('makes a new enterprise client with its name, limits and an expiry', () => {
      expect(
        parseCommand([
          'keys',
          'create',
          '--plan',
          'enterprise',
          '--name',
          'Big',
          '--per-minute',
          '9',
          '--per-day',
          '99',
          '--expires-in',
          '1h',
          '--json',
        ]),
      ).toEqual({
        kind: 'keys create',
        owner: { newClient: { name: 'Big', plan: 'enterprise', limits: { perMinute: 9, perDay: 99 } } },
        expiresInMs: 3_600_000,
        json: true,
      });
    });

    it.each([
      [['--client', '3', '--scopes', 'pets:read'], { clientId: 3 }, ['pets:read']],
      [
        ['--plan', 'free', '--scopes=keys:manage,pets:read'],
        { newClient: { name: 'free client', plan: 'free' } },
        ['keys:manage', 'pets:read'],
      ],
      [['--client', '3', '--scopes', ' pets:write , pets:read,'], { clientId: 3 }, ['pets:write', 'pets:read']],
    ] as [string[], object, string[]][])('reads the scopes of %j', (args, owner, scopes) => {
      expect(parseCommand(['keys', 'create', ...args])).toEqual({
        kind: 'keys create',
        owner,
        expiresInMs: undefined,
        scopes,
        json: false,
      });
    });

    it.each([
      [[], /keys create needs --client CLIENT_ID .* or --plan PLAN/],
      [['--client', '3', '--scopes', 'pets:delete'], new RegExp(`^Unknown scope "pets:delete" in --scopes; choose from ${SCOPES}\\.$`)],
      [['--client', '3', '--scopes', 'PETS:READ'], /Unknown scope "PETS:READ"/],
      [['--client', '3', '--scopes', 'pets:read pets:write'], /Unknown scope "pets:read pets:write"/],
      [['--plan', 'free', '--scopes', ''], new RegExp(`^--scopes needs at least one scope of ${SCOPES}\\.$`)],
      [['--plan', 'free', '--scopes', ' , '], /--scopes needs at least one scope/],
      [['--client', '3', '--scopes'], /Option '--scopes <value>' argument missing/],
      [['--client', '3', '--scopes', 'pets:read', '--scopes', 'pets:write'], /--scopes is given more than once/],
      [['--name', 'Acme'], /keys create needs --client CLIENT_ID .* or --plan PLAN/],
      [['--client', '3', '--plan', 'pro'], /--client and --plan cannot be used together/],
      [['--client', '3', '--name', 'Acme'], /--name only goes with --plan/],
      [['--client', '3', '--per-minute', '5'], /--per-minute only goes with --plan/],
      [['--client', '3', '--per-day', '5'], /--per-day only goes with --plan/],
      [['--client', 'abc'], /--client must be a positive integer \(got "abc"\)/],
      [['--client', '0'], /--client must be a positive integer/],
      [['--client'], /Option '--client <value>' argument missing/],
      [['--client', '3', '4'], /Unexpected argument "4"/],
      [['--plan', 'gold'], /Unknown plan "gold"/],
      [['--plan', 'enterprise'], /The enterprise plan needs both --per-minute and --per-day/],
      [['--plan', 'free', '--per-minute', '5', '--per-day', '10'], /The free plan has fixed limits/],
      [['--plan', 'enterprise', '--per-minute', '5', '--per-day', 'lots'], /--per-day must be a positive integer/],
      [['--plan', 'pro', '--name', ' '], /--name must be 1 to 200 characters/],
      [['--client', '3', '--expires-in'], /Option '--expires-in <value>' argument missing/],
      ...['10', 'h', '0s', '1.5h', '10w', '1 d', '1D', '36501d', '999999999999999999d', '-1d'].map((duration) => [
        ['--client', '3', `--expires-in=${duration}`],
        new RegExp(`--expires-in must be a positive number and a unit .*\\(got "${duration}"\\)`),
      ]),
    ] as [string[], RegExp][])('refuses %j', (args, message) => {
      expect(refusal(['keys', 'create', ...args]).message).toMatch(message);
    });
  });

  describe('keys list', () => {
    it('lists every key, or those of one client, or a page of them', () => {
      expect(parseCommand(['keys', 'list'])).toEqual({ kind: 'keys list', clientId: undefined, json: false });
      expect(parseCommand(['keys', 'list', '--client', '12', '--json'])).toEqual({ kind: 'keys list', clientId: 12, json: true });
      expect(parseCommand(['keys', 'list', '--client', '12', '--limit', '2', '--cursor', 'c'])).toEqual({
        kind: 'keys list',
        clientId: 12,
        page: { limit: 2, cursor: 'c' },
        json: false,
      });
    });

    it.each([
      [['--client', 'x'], /--client must be a positive integer/],
      [['--client', '1', '--client', '2'], /--client is given more than once/],
      [['3'], /Unexpected argument "3"/],
      [['--prefix', 'pets_'], /Unknown option '--prefix'/],
    ])('refuses %j', (args, message) => {
      expect(refusal(['keys', 'list', ...args]).message).toMatch(message);
    });
  });

  describe('audit list', () => {
    it('lists the newest events, or those of one client and action, from a cursor', () => {
      expect(parseCommand(['audit', 'list'])).toEqual({ kind: 'audit list', query: {}, json: false });
      const cursor = encodeCursor({ after: 40, clientId: 3, action: 'key.revoked' });
      expect(
        parseCommand(['audit', 'list', '--client', '3', '--action', 'key.revoked', '--cursor', cursor, '--limit=100', '--json']),
      ).toEqual({ kind: 'audit list', query: { clientId: 3, action: 'key.revoked', cursor, limit: 100 }, json: true });
    });

    it.each([
      [['--client', 'x'], /^--client must be a positive integer \(got "x"\)\.$/],
      [
        ['--action', 'key.deleted'],
        /^--action must be one of client\.created, client\.plan_changed, key\.created, .*, admin_token\.revoked\.$/,
      ],
      [['--limit', '0'], /^--limit must be a positive integer/],
      [['--limit', '101'], /^--limit must be an integer from 1 to 100\.$/],
      [['--cursor', 'not-a-cursor'], /^--cursor is malformed or continues another listing; pass the one the page before gave\.$/],
      [
        ['--client', '4', '--cursor', encodeCursor({ after: 40, clientId: 3, action: null })],
        /^--cursor is malformed or continues another listing; pass the one the page before gave\.$/,
      ],
      [['--action', 'key.deleted', '--limit', '500'], /^--limit must be .*; --action must be one of /],
      [['--action', 'key.created', '--action', 'key.revoked'], /--action is given more than once/],
      [['7'], /Unexpected argument "7"/],
    ])('refuses %j', (args, message) => {
      expect(refusal(['audit', 'list', ...args]).message).toMatch(message);
    });
  });

  describe('keys revoke', () => {
    it('reads the key id', () => {
      expect(parseCommand(['keys', 'revoke', '5'])).toEqual({ kind: 'keys revoke', keyId: 5, json: false });
      expect(parseCommand(['keys', 'revoke', '--json', '5'])).toEqual({ kind: 'keys revoke', keyId: 5, json: true });
    });

    it.each([
      [[], /Missing KEY_ID/],
      [['five'], /KEY_ID must be a positive integer \(got "five"\)/],
      [['0'], /KEY_ID must be a positive integer/],
      [['5', '6'], /Unexpected argument "6"/],
      [['5', '--force'], /Unknown option '--force'/],
    ])('refuses %j', (args, message) => {
      expect(refusal(['keys', 'revoke', ...args]).message).toMatch(message);
    });
  });

  describe('usage', () => {
    it('reads the client and the period, either end left to the defaults', () => {
      expect(parseCommand(['usage', '--client', '7'])).toEqual({ kind: 'usage', clientId: 7, period: {}, json: false });
      expect(parseCommand(['usage', '--from', '2027-01-01', '--to', '2027-04-03', '--client', '7', '--json'])).toEqual({
        kind: 'usage',
        clientId: 7,
        period: { from: '2027-01-01', to: '2027-04-03' },
        json: true,
      });
      expect(parseCommand(['usage', '--client', '7', '--to', '2027-03-01'])).toMatchObject({ period: { to: '2027-03-01' } });
    });

    it.each([
      [[], /--client is required/],
      [['--client', '0'], /--client must be a positive integer/],
      [['--client', '7', '--from', '2027-02-30'], /from must be a UTC day as YYYY-MM-DD \(got "2027-02-30"\)/],
      [['--client', '7', '--to', 'yesterday'], /to must be a UTC day as YYYY-MM-DD/],
      [['--client', '7', '--from', '2027-03-02', '--to', '2027-03-01'], /from \(2027-03-02\) must not be after to \(2027-03-01\)/],
      [['--client', '7', '--from', '2027-01-01', '--to', '2027-04-04'], /is 94 days; at most 93/],
      [['--client', '7', 'list'], /Unexpected argument "list"/],
    ])('refuses %j', (args, message) => {
      expect(refusal(['usage', ...args]).message).toMatch(message);
    });
  });

  describe('keys roll', () => {
    it('reads the key id and the overlap, one hour by default', () => {
      expect(parseCommand(['keys', 'roll', '5'])).toEqual({ kind: 'keys roll', keyId: 5, overlapMs: 3_600_000, json: false });
      expect(parseCommand(['keys', 'roll', '5', '--overlap', '0s', '--json'])).toEqual({
        kind: 'keys roll',
        keyId: 5,
        overlapMs: 0,
        json: true,
      });
      expect(parseCommand(['keys', 'roll', '5', '--overlap=1d'])).toMatchObject({ overlapMs: 86_400_000 });
    });

    it.each([
      [[], /Missing KEY_ID/],
      [['5', '--overlap', '25h'], /^--overlap must be a number and a unit .* at most 1d \(got "25h"\)\.$/],
      [['5', '--overlap', '10'], /--overlap must be a number and a unit/],
      [['5', '--overlap=-1s'], /--overlap must be a number and a unit/],
    ])('refuses %j', (args, message) => {
      expect(refusal(['keys', 'roll', ...args]).message).toMatch(message);
    });
  });

  describe('admin-tokens', () => {
    it('creates with a name, lists, revokes by id', () => {
      expect(parseCommand(['admin-tokens', 'create', '--name', ' ops '])).toEqual({
        kind: 'admin-tokens create',
        name: 'ops',
        json: false,
      });
      expect(parseCommand(['admin-tokens', 'list', '--json'])).toEqual({ kind: 'admin-tokens list', json: true });
      expect(parseCommand(['admin-tokens', 'revoke', '3'])).toEqual({ kind: 'admin-tokens revoke', tokenId: 3, json: false });
    });

    it.each([
      [['create'], /--name is required/],
      [['create', '--name', '  '], /--name must be 1 to 100 characters/],
      [['create', '--name', 'x'.repeat(101)], /--name must be 1 to 100 characters/],
      [['list', '--all'], /Unknown option '--all'/],
      [['revoke'], /Missing TOKEN_ID/],
      [['revoke', 'one'], /TOKEN_ID must be a positive integer/],
    ])('refuses %j', (args, message) => {
      expect(refusal(['admin-tokens', ...args]).message).toMatch(message);
    });
  });

  describe('webhooks, the commands a module declares', () => {
    it('lists, pages and disables by id', () => {
      expect(parseCommand(['webhooks', 'list', '--client', '4', '--json'])).toEqual({ kind: 'webhooks list', clientId: 4, json: true });
      expect(parseCommand(['webhooks', 'deliveries', '9'])).toEqual({ kind: 'webhooks deliveries', endpointId: 9, page: {}, json: false });
      expect(parseCommand(['webhooks', 'deliveries', '9', '--limit', '5', '--cursor', 'c'])).toMatchObject({
        page: { limit: 5, cursor: 'c' },
      });
      expect(parseCommand(['webhooks', 'disable', '9'])).toEqual({ kind: 'webhooks disable', endpointId: 9, json: false });
    });
    it.each([
      [['list'], /--client is required/],
      [['list', '--client', 'x'], /--client must be a positive integer/],
      [['deliveries'], /Missing ENDPOINT_ID/],
      [['deliveries', '9', '--limit', '101'], /--limit must be at most 100/],
      [['disable', '9', '--reason', 'x'], /Unknown option '--reason'/],
      [['delete', '9'], /"webhooks" takes one of: list, deliveries, disable/],
    ])('refuses %j', (args, message) => {
      expect(refusal(['webhooks', ...args]).message).toMatch(message);
    });
  });
});
