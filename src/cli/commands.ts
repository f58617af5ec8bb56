import { ADMIN_TOKEN_NAME_MAX_LENGTH, AdminTokensService } from '../modules/admin/index.js';
import { AuditService, checkAuditQuery, type ChangeContext } from '../modules/audit/index.js';
import { ApiKeysService, type ApiKeyView, type IssuedKey } from '../modules/auth/index.js';
import {
  cell,
  cliCommand,
  Clock,
  CommandFailedError,
  formatTable,
  id,
  pageOf,
  PAGE_OPTIONS,
  readArgs,
  required,
  text,
  UsageError,
  withNextPage,
  type CliCommand,
  type CommandOutput,
} from '../common/index.js';
import { DEFAULT_OVERLAP_SECONDS, MAX_OVERLAP_SECONDS } from '../modules/keys/index.js';
import { clientName, ClientsService, type ClientView } from '../modules/plans/index.js';
import { usagePeriod, UsageService } from '../modules/usage/index.js';
import { asUsage, choiceOf, duration, PLAN_OPTIONS, scopes } from './arguments.js';
import { SERVER_PARTS } from './server-catalogues.js';

/** The server's services the tool's own commands run on, taken from the context executeCommand opens. */
const SERVICES = {
  clients: ClientsService,
  keys: ApiKeysService,
  audit: AuditService,
  usage: UsageService,
  adminTokens: AdminTokensService,
  clock: Clock,
};
type Services = { [K in keyof typeof SERVICES]: InstanceType<(typeof SERVICES)[K]> };

const command = <A extends { json: boolean }>(parse: (args: string[]) => A, run: (services: Services, args: A) => Promise<CommandOutput>) =>
  cliCommand(parse, (app, args: A) =>
    run(Object.fromEntries(Object.entries(SERVICES).map(([name, service]) => [name, app.get(service)])) as Services, args),
  );

/** Every change the tool makes is the operator's: audited with the actor `cli`. */
const BY_CLI: ChangeContext = { actor: { kind: 'cli' } };

/** A command whose one argument is an id. */
const byId =
  <F extends string>(positional: string, field: F) =>
  (args: string[]) => {
    const { id, json } = readArgs(args, {}, positional);
    return { [field]: id, json } as Record<F, number> & { json: boolean };
  };

const STORE_IT = 'Store it now: it is shown only this once and cannot be recovered.';

function describePlan({ plan, limits }: ClientView): string {
  return `plan ${plan} (${limits.perMinute}/min, ${limits.perDay}/day)`;
}

/** A new key as `keys create` and `keys roll` print it, and as the admin API answers: its fields, its client's plan, the key. */
function keyShown({ key, apiKey }: IssuedKey, client: ClientView, summary: string): CommandOutput {
  const json: ApiKeyView & { plan: string; key: string } = { ...apiKey, plan: client.plan, key };
  return { json, text: [summary, key, STORE_IT].join('\n') };
}

function revoked(what: string, id: number, alreadyRevoked: boolean): CommandOutput {
  const capitalised = what[0].toUpperCase() + what.slice(1);
  return {
    json: { id, revoked: true, alreadyRevoked },
    text: alreadyRevoked
      ? `${capitalised} ${id} was already revoked; nothing to do.`
      : `Revoked ${what} ${id}. Every server refuses it within 5 seconds.`,
  };
}

const clientNameOption = required((raw, what) => asUsage(() => clientName(raw!, what)));

const AUDIT_OPTIONS: Readonly<Record<string, string>> = { clientId: '--client', action: '--action', cursor: '--cursor', limit: '--limit' };

/** Every command of the tool's own by its words: `keys create`, or `usage` alone. */
export const COMMANDS: Readonly<Record<string, CliCommand>> = {
  'clients create': command(
    (args) => {
      const { name, plan, json, ...limits } = readArgs(args, { name: clientNameOption, plan: required(text), ...PLAN_OPTIONS });
      return { name, choice: choiceOf(plan, limits), json };
    },
    async ({ clients }, { name, choice }) => {
      const client = await clients.create(name, choice.plan, choice.limits, BY_CLI);
      return { json: client, text: `Created client ${client.id} "${client.name}" on ${describePlan(client)}.` };
    },
  ),
  'clients set-plan': command(
    (args) => {
      const { id: clientId, plan, json, ...limits } = readArgs(args, { plan: required(text), ...PLAN_OPTIONS }, 'CLIENT_ID');
      return { clientId, choice: choiceOf(plan, limits), json };
    },
    async ({ clients }, { clientId, choice }) => {
      const client = await clients.setPlan(clientId, choice.plan, choice.limits, BY_CLI);
      return { json: client, text: `Client ${client.id} "${client.name}" is now on ${describePlan(client)}.` };
    },
  ),
  'clients get': command(byId('CLIENT_ID', 'clientId'), async ({ clients }, { clientId }) => {
    const client = await clients.get(clientId);
    return { json: client, text: `Client ${client.id} "${client.name}" on ${describePlan(client)}, created ${client.createdAt}.` };
  }),
  'clients list': command(
    (args) => {
      const { json, ...page } = readArgs(args, PAGE_OPTIONS);
      return { page: pageOf(page), json };
    },
    async ({ clients: service }, { page }) => {
      const { clients, nextCursor } = page ? await service.listPage(page) : { clients: await service.list() };
      const rows = clients.map((c) => [c.id, c.name, c.plan, c.limits.perMinute, c.limits.perDay, c.createdAt].map(cell));
      const text = formatTable(['ID', 'NAME', 'PLAN', 'PER MINUTE', 'PER DAY', 'CREATED'], rows, 'No clients.');
      return { json: { clients, ...(page && { nextCursor }) }, text: withNextPage(text, nextCursor) };
    },
  ),
  'keys create': command(
    (args) => {
      const values = readArgs(args, { 'expires-in': duration(), scopes, client: text, name: text, plan: text, ...PLAN_OPTIONS });
      const { 'expires-in': expiresInMs, json } = values;
      const common = { expiresInMs, scopes: values.scopes, json };
      if (values.client !== undefined) {
        if (values.plan !== undefined)
          throw new UsageError('--client and --plan cannot be used together: a key joins an existing client or a new one.');
        for (const option of ['name', 'per-minute', 'per-day'] as const) {
          if (values[option] !== undefined)
            throw new UsageError(`--${option} only goes with --plan (a new client); the client of --client already has one.`);
        }
        return { owner: { clientId: id(values.client, '--client')! }, ...common };
      }
      if (values.plan === undefined)
        throw new UsageError('keys create needs --client CLIENT_ID (an existing client) or --plan PLAN (a new client).');
      const name = values.name === undefined ? `${values.plan} client` : clientNameOption(values.name, '--name');
      return { owner: { newClient: { name, ...choiceOf(values.plan, values) } }, ...common };
    },
    async ({ clients, keys, clock }, { owner, expiresInMs, scopes }) => {
      const expiresAt = expiresInMs === undefined ? null : new Date(clock.now().getTime() + expiresInMs);
      const { newClient } = owner;
      const client = newClient
        ? await clients.create(newClient.name, newClient.plan, newClient.limits, BY_CLI)
        : await clients.get(owner.clientId);
      const issued = await keys.issue(client.id, { expiresAt, scopes }, BY_CLI);
      const { id, prefix, expiresAt: expires } = issued.apiKey;
      return keyShown(
        issued,
        client,
        `Created key ${id} (${prefix}...) for client ${client.id} "${client.name}" on ${describePlan(client)}, ` +
          `with scopes ${issued.apiKey.scopes.join(' ')}, expiring ${expires ?? 'never'}.`,
      );
    },
  ),
  'keys list': command(
    (args) => {
      const { client: clientId, json, ...page } = readArgs(args, { client: id, ...PAGE_OPTIONS });
      return { clientId, page: pageOf(page), json };
    },
    async ({ clients, keys: service }, { clientId, page }) => {
      if (clientId !== undefined) await clients.get(clientId);
      const { keys, nextCursor } = page ? await service.listPage(clientId, page) : { keys: await service.list(clientId) };
      const rows = keys.map((k) =>
        [k.id, k.clientId, k.name || null, k.prefix, k.scopes.join(' '), k.createdAt, k.expiresAt, k.revokedAt, k.lastUsedAt].map(cell),
      );
      const headers = ['ID', 'CLIENT', 'NAME', 'PREFIX', 'SCOPES', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED'];
      const text = formatTable(headers, rows, 'No keys.');
      return { json: { keys, ...(page && { nextCursor }) }, text: withNextPage(text, nextCursor) };
    },
  ),
  'keys roll': command(
    (args) => {
      const overlap = duration({ maxMs: MAX_OVERLAP_SECONDS * 1000, zero: true });
      const { id: keyId, overlap: overlapMs = DEFAULT_OVERLAP_SECONDS * 1000, json } = readArgs(args, { overlap }, 'KEY_ID');
      return { keyId, overlapMs, json };
    },
    async ({ clients, keys }, { keyId, overlapMs }) => {
      const old = await keys.get(keyId);
      if (!old) throw new CommandFailedError(`No API key with id ${keyId}; nothing was rolled.`);
      const rolled = await keys.roll(keyId, old.clientId, overlapMs, BY_CLI);
      if (rolled === 'not-found') throw new CommandFailedError(`API key ${keyId} is revoked or expired; only a live key rolls.`);
      const { id, prefix } = rolled.apiKey;
      const summary = `Rolled key ${keyId} into key ${id} (${prefix}...); key ${keyId} stops working within ${overlapMs / 1000} s.`;
      return keyShown(rolled, await clients.get(old.clientId), summary);
    },
  ),
  'keys revoke': command(byId('KEY_ID', 'keyId'), async ({ keys }, { keyId }) => {
    const outcome = await keys.revoke(keyId, BY_CLI);
    if (outcome === 'not-found') throw new CommandFailedError(`No API key with id ${keyId}; nothing was revoked.`);
    return revoked('key', keyId, outcome === 'already-revoked');
  }),
  'audit list': command(
    (args) => {
      const { client: clientId, action, cursor, limit, json } = readArgs(args, { client: id, action: text, ...PAGE_OPTIONS });
      const query = { clientId, action, cursor, limit };
      asUsage(() => checkAuditQuery(query, SERVER_PARTS.auditActions), AUDIT_OPTIONS);
      return { query, json };
    },
    async ({ audit }, { query }) => {
      const page = await audit.list(query);
      const rows = page.items.map((e) =>
        [e.id, e.occurredAt, e.actor, e.action, e.clientId, e.keyId, e.requestId, JSON.stringify(e.details)].map(cell),
      );
      const table = formatTable(['ID', 'TIME', 'ACTOR', 'ACTION', 'CLIENT', 'KEY', 'REQUEST', 'DETAILS'], rows, 'No audit events.');
      return { json: page, text: page.nextCursor ? `${table}\nOlder events: --cursor ${page.nextCursor}` : table };
    },
  ),
  usage: command(
    (args) => {
      const { client: clientId, from, to, json } = readArgs(args, { client: required(id), from: text, to: text });
      const period = { from, to };
      asUsage(() => usagePeriod(period, new Date())); // the defaults end today
      return { clientId, period, json };
    },
    async ({ usage: service }, { clientId, period }) => {
      const usage = await service.forClient(clientId, period);
      const { from, to, days, totals } = usage;
      const rows = days.map(({ day, keyId, admitted, refused }) => [day, keyId, admitted, refused].map(cell));
      const table = rows.length ? `${formatTable(['DAY', 'KEY', 'ADMITTED', 'REFUSED'], rows)}\n` : '';
      const summary = `Client ${clientId}, ${from} to ${to} (UTC): ${totals.admitted} admitted, ${totals.refused} refused.`;
      return { json: usage, text: table + summary };
    },
  ),
  'admin-tokens create': command(
    (args) => {
      const { name: given, json } = readArgs(args, { name: required(text) });
      const name = given.trim();
      if (!name || name.length > ADMIN_TOKEN_NAME_MAX_LENGTH) {
        throw new UsageError(`--name must be 1 to ${ADMIN_TOKEN_NAME_MAX_LENGTH} characters, not only white space.`);
      }
      return { name, json };
    },
    async ({ adminTokens }, { name }) => {
      const { token, adminToken } = await adminTokens.create(name, BY_CLI);
      return {
        json: { ...adminToken, token },
        text: [`Created admin token ${adminToken.id} "${adminToken.name}" (${adminToken.prefix}...).`, token, STORE_IT].join('\n'),
      };
    },
  ),
  'admin-tokens list': command(
    (args) => ({ json: readArgs(args, {}).json }),
    async ({ adminTokens: service }) => {
      const adminTokens = await service.list();
      const rows = adminTokens.map((t) => [t.id, t.name, t.prefix, t.createdAt, t.revokedAt].map(cell));
      return { json: { adminTokens }, text: formatTable(['ID', 'NAME', 'PREFIX', 'CREATED', 'REVOKED'], rows, 'No admin tokens.') };
    },
  ),
  'admin-tokens revoke': command(byId('TOKEN_ID', 'tokenId'), async ({ adminTokens }, { tokenId }) => {
    const outcome = await adminTokens.revoke(tokenId, BY_CLI);
    if (outcome === 'not-found') throw new CommandFailedError(`No admin token with id ${tokenId}; nothing was revoked.`);
    return revoked('admin token', tokenId, outcome === 'already-revoked');
  }),
};
