import { Injectable } from '@nestjs/common';
import { AuditService, type ChangeContext } from '../modules/audit/index.js';
import { ApiKeysService } from '../modules/auth/index.js';
import { Clock } from '../common/index.js';
import { ClientsService, type ClientView } from '../modules/plans/index.js';
import { UsageService, type ClientUsage } from '../modules/usage/index.js';
import type { CliCommand, KeyOwner } from './cli-command.js';
import { CommandFailedError } from './cli.errors.js';
import { formatTable } from './text-table.js';

export type OperatorCommand = Exclude<CliCommand, { kind: 'help' }>;

/** Every change the tool makes is the operator's: audited with the actor `cli`. */
const BY_CLI: ChangeContext = { actor: { kind: 'cli' } };

/** `json` is printed with --json, `text` otherwise. */
export interface CommandOutput {
  json: object;
  text: string;
}

@Injectable()
export class CliCommandsService {
  constructor(
    private readonly clients: ClientsService,
    private readonly keys: ApiKeysService,
    private readonly audit: AuditService,
    private readonly usage: UsageService,
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
      case 'clients list': {
        const clients = await this.clients.list();
        const rows = clients.map((c) => [c.id, c.name, c.plan, c.limits.perMinute, c.limits.perDay, c.createdAt].map(String));
        const text = clients.length ? formatTable(['ID', 'NAME', 'PLAN', 'PER MINUTE', 'PER DAY', 'CREATED'], rows) : 'No clients.';
        return { json: { clients }, text };
      }
      case 'keys create':
        return this.createKey(command);
      case 'keys list': {
        if (command.clientId !== undefined) await this.clients.get(command.clientId);
        const keys = await this.keys.list(command.clientId);
        const rows = keys.map((k) =>
          [k.id, k.clientId, k.prefix, k.scopes.join(' '), k.createdAt, k.expiresAt, k.revokedAt, k.lastUsedAt].map((v) =>
            String(v ?? '-'),
          ),
        );
        const headers = ['ID', 'CLIENT', 'PREFIX', 'SCOPES', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED'];
        const text = keys.length ? formatTable(headers, rows) : 'No keys.';
        return { json: { keys }, text };
      }
      case 'keys revoke': {
        const outcome = await this.keys.revoke(command.keyId, BY_CLI);
        if (outcome === 'not-found') throw new CommandFailedError(`No API key with id ${command.keyId}; nothing was revoked.`);
        const alreadyRevoked = outcome === 'already-revoked';
        return {
          json: { id: command.keyId, revoked: true, alreadyRevoked },
          text: alreadyRevoked
            ? `Key ${command.keyId} was already revoked; nothing to do.`
            : `Revoked key ${command.keyId}. Every server refuses it within 5 seconds.`,
        };
      }
      case 'audit list': {
        const page = await this.audit.list(command.query);
        const rows = page.items.map((e) =>
          [e.id, e.occurredAt, e.actor, e.action, e.clientId, e.keyId, e.requestId, JSON.stringify(e.details)].map((v) => String(v ?? '-')),
        );
        const headers = ['ID', 'TIME', 'ACTOR', 'ACTION', 'CLIENT', 'KEY', 'REQUEST', 'DETAILS'];
        const table = rows.length ? formatTable(headers, rows) : 'No audit events.';
        return { json: page, text: page.nextCursor ? `${table}\nOlder events: --cursor ${page.nextCursor}` : table };
      }
      case 'usage': {
        const usage = await this.usage.forClient(command.clientId, command.period);
        return { json: usage, text: describeUsage(command.clientId, usage) };
      }
    }
  }

  private async createKey({ owner, expiresInMs, scopes }: Extract<OperatorCommand, { kind: 'keys create' }>): Promise<CommandOutput> {
    const expiresAt = expiresInMs === undefined ? null : new Date(this.clock.now().getTime() + expiresInMs);
    const client = await this.ownerOf(owner);
    const { key, apiKey } = await this.keys.issue(client.id, { expiresAt, scopes }, BY_CLI);
    const { id, clientId, prefix, createdAt } = apiKey;
    return {
      json: { id, clientId, plan: client.plan, key, prefix, scopes: apiKey.scopes, createdAt, expiresAt: apiKey.expiresAt },
      text: [
        `Created key ${id} (${prefix}...) for client ${client.id} "${client.name}" on ${describePlan(client)}, ` +
          `with scopes ${apiKey.scopes.join(' ')}, expiring ${apiKey.expiresAt ?? 'never'}.`,
        key,
        'Store it now: the key is shown only this once and cannot be recovered.',
      ].join('\n'),
    };
  }

  private ownerOf(owner: KeyOwner): Promise<ClientView> {
    if ('clientId' in owner) return this.clients.get(owner.clientId);
    const { name, plan, limits } = owner.newClient;
    return this.clients.create(name, plan, limits, BY_CLI);
  }
}

function describePlan({ plan, limits }: ClientView): string {
  return `plan ${plan} (${limits.perMinute}/min, ${limits.perDay}/day)`;
}

function describeUsage(clientId: number, { from, to, days, totals }: ClientUsage): string {
  const rows = days.map(({ day, keyId, admitted, refused }) => [day, keyId, admitted, refused].map(String));
  const table = rows.length ? `${formatTable(['DAY', 'KEY', 'ADMITTED', 'REFUSED'], rows)}\n` : '';
  return `${table}Client ${clientId}, ${from} to ${to} (UTC): ${totals.admitted} admitted, ${totals.refused} refused.`;
}
