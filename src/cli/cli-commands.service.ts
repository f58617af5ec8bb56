import { Injectable } from '@nestjs/common';
import { AdminTokensService } from '../modules/admin/index.js';
import { AuditService, type ChangeContext } from '../modules/audit/index.js';
import { ApiKeysService, type ApiKeyView, type IssuedKey } from '../modules/auth/index.js';
import { Clock } from '../common/index.js';
import { ClientsService, type ClientView } from '../modules/plans/index.js';
import { UsageService } from '../modules/usage/index.js';
import type { CliCommand, KeyOwner } from './parse-command.js';
import { CommandFailedError } from './cli.errors.js';

export type OperatorCommand = Exclude<CliCommand, { kind: 'help' }>;

/** Every change the tool makes is the operator's: audited with the actor `cli`. */
const BY_CLI: ChangeContext = { actor: { kind: 'cli' } };

/** `json` is printed with --json, `text` otherwise. */
export interface CommandOutput {
  json: object;
  text: string;
}

/** The service methods the admin API calls too (src/modules/admin): one set of rules, two ways in. */
@Injectable()
export class CliCommandsService {
  constructor(
    private readonly clients: ClientsService,
    private readonly keys: ApiKeysService,
    private readonly audit: AuditService,
    private readonly usage: UsageService,
    private readonly adminTokens: AdminTokensService,
    private readonly clock: Clock,
  ) {}

  async execute(command: OperatorCommand): Promise<CommandOutput> {
    switch (command.kind) {
      case 'clients create': {
        const client = await this.clients.create(command.name, command.choice.plan, command.choice.limits, BY_CLI);
        return { json: client, text: `Created client ${client.id} "${client.name}" on ${describePlan(client)}.` };
      }
      case 'clients set-plan': {
        const client = await this.clients.setPlan(command.clientId, command.choice.plan, command.choice.limits, BY_CLI);
        return { json: client, text: `Client ${client.id} "${client.name}" is now on ${describePlan(client)}.` };
      }
      case 'clients get': {
        const client = await this.clients.get(command.clientId);
        return { json: client, text: `Client ${client.id} "${client.name}" on ${describePlan(client)}, created ${client.createdAt}.` };
      }
      case 'clients list': {
        const { clients, nextCursor } = command.page ? await this.clients.listPage(command.page) : { clients: await this.clients.list() };
        const rows = clients.map((c) => [c.id, c.name, c.plan, c.limits.perMinute, c.limits.perDay, c.createdAt].map(cell));
        const text = formatTable(['ID', 'NAME', 'PLAN', 'PER MINUTE', 'PER DAY', 'CREATED'], rows, 'No clients.');
        return { json: { clients, ...(command.page && { nextCursor }) }, text: withNextPage(text, nextCursor) };
      }
      case 'keys create':
        return this.createKey(command);
      case 'keys list': {
        if (command.clientId !== undefined) await this.clients.get(command.clientId);
        const { keys, nextCursor } = command.page
          ? await this.keys.listPage(command.clientId, command.page)
          : { keys: await this.keys.list(command.clientId) };
        const rows = keys.map((k) =>
          [k.id, k.clientId, k.name || null, k.prefix, k.scopes.join(' '), k.createdAt, k.expiresAt, k.revokedAt, k.lastUsedAt].map(cell),
        );
        const headers = ['ID', 'CLIENT', 'NAME', 'PREFIX', 'SCOPES', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED'];
        const text = formatTable(headers, rows, 'No keys.');
        return { json: { keys, ...(command.page && { nextCursor }) }, text: withNextPage(text, nextCursor) };
      }
      case 'keys roll':
        return this.rollKey(command);
      case 'keys revoke': {
        const outcome = await this.keys.revoke(command.keyId, BY_CLI);
        if (outcome === 'not-found') throw new CommandFailedError(`No API key with id ${command.keyId}; nothing was revoked.`);
        return revoked('key', command.keyId, outcome === 'already-revoked');
      }
      case 'admin-tokens create': {
        const { token, adminToken } = await this.adminTokens.create(command.name, BY_CLI);
        return {
          json: { ...adminToken, token },
          text: [`Created admin token ${adminToken.id} "${adminToken.name}" (${adminToken.prefix}...).`, token, STORE_IT].join('\n'),
        };
      }
      case 'audit list': {
        const page = await this.audit.list(command.query);
        const rows = page.items.map((e) =>
          [e.id, e.occurredAt, e.actor, e.action, e.clientId, e.keyId, e.requestId, JSON.stringify(e.details)].map(cell),
        );
        const table = formatTable(['ID', 'TIME', 'ACTOR', 'ACTION', 'CLIENT', 'KEY', 'REQUEST', 'DETAILS'], rows, 'No audit events.');
        return { json: page, text: page.nextCursor ? `${table}\nOlder events: --cursor ${page.nextCursor}` : table };
      }
      case 'usage': {
        const usage = await this.usage.forClient(command.clientId, command.period);
        const { from, to, days, totals } = usage;
        const rows = days.map(({ day, keyId, admitted, refused }) => [day, keyId, admitted, refused].map(cell));
        const table = rows.length ? `${formatTable(['DAY', 'KEY', 'ADMITTED', 'REFUSED'], rows)}\n` : '';
        const summary = `Client ${command.clientId}, ${from} to ${to} (UTC): ${totals.admitted} admitted, ${totals.refused} refused.`;
        return { json: usage, text: table + summary };
      }
      case 'admin-tokens list': {
        const adminTokens = await this.adminTokens.list();
        const rows = adminTokens.map((t) => [t.id, t.name, t.prefix, t.createdAt, t.revokedAt].map(cell));
        return { json: { adminTokens }, text: formatTable(['ID', 'NAME', 'PREFIX', 'CREATED', 'REVOKED'], rows, 'No admin tokens.') };
      }
      case 'admin-tokens revoke': {
        const outcome = await this.adminTokens.revoke(command.tokenId, BY_CLI);
        if (outcome === 'not-found') throw new CommandFailedError(`No admin token with id ${command.tokenId}; nothing was revoked.`);
        return revoked('admin token', command.tokenId, outcome === 'already-revoked');
      }
    }
  }

  private async createKey({ owner, expiresInMs, scopes }: Extract<OperatorCommand, { kind: 'keys create' }>): Promise<CommandOutput> {
    const expiresAt = expiresInMs === undefined ? null : new Date(this.clock.now().getTime() + expiresInMs);
    const client = await this.ownerOf(owner);
    const issued = await this.keys.issue(client.id, { expiresAt, scopes }, BY_CLI);
    const { id, prefix, expiresAt: expires } = issued.apiKey;
    return keyShown(
      issued,
      client,
      `Created key ${id} (${prefix}...) for client ${client.id} "${client.name}" on ${describePlan(client)}, ` +
        `with scopes ${issued.apiKey.scopes.join(' ')}, expiring ${expires ?? 'never'}.`,
    );
  }

  private async rollKey({ keyId, overlapMs }: Extract<OperatorCommand, { kind: 'keys roll' }>): Promise<CommandOutput> {
    const old = await this.keys.get(keyId);
    if (!old) throw new CommandFailedError(`No API key with id ${keyId}; nothing was rolled.`);
    const rolled = await this.keys.roll(keyId, old.clientId, overlapMs, BY_CLI);
    if (rolled === 'not-found') throw new CommandFailedError(`API key ${keyId} is revoked or expired; only a live key rolls.`);
    const { id, prefix } = rolled.apiKey;
    const client = await this.clients.get(old.clientId);
    return keyShown(
      rolled,
      client,
      `Rolled key ${keyId} into key ${id} (${prefix}...); key ${keyId} stops working within ${overlapMs / 1000} s.`,
    );
  }

  private ownerOf(owner: KeyOwner): Promise<ClientView> {
    if ('clientId' in owner) return this.clients.get(owner.clientId);
    const { name, plan, limits } = owner.newClient;
    return this.clients.create(name, plan, limits, BY_CLI);
  }
}

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

function withNextPage(text: string, nextCursor: string | null | undefined): string {
  return nextCursor ? `${text}\nMore: --cursor ${nextCursor}` : text;
}

const cell = (value: string | number | null) => String(value ?? '-');

/** Rows under their headers in aligned columns; `none` when there are no rows. */
function formatTable(headers: readonly string[], rows: readonly string[][], none = ''): string {
  if (rows.length === 0) return none;
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column].length)));
  const line = (cells: readonly string[]) => cells.map((value, column) => value.padEnd(widths[column])).join('  ');
  return [headers, ...rows].map((cells) => line(cells).trimEnd()).join('\n');
}
