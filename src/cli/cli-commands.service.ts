import { Injectable } from '@nestjs/common';
import { ApiKeysService } from '../modules/auth/index.js';
import { Clock } from '../common/index.js';
import { ClientsService, type ClientView } from '../modules/plans/index.js';
import type { CliCommand, KeyOwner } from './cli-command.js';
import { CommandFailedError } from './cli.errors.js';
import { formatTable } from './text-table.js';

export type OperatorCommand = Exclude<CliCommand, { kind: 'help' }>;

/** `json` is printed with --json, `text` otherwise. */
export interface CommandOutput {
  json: object;
  text: string;
}

type CommandOf<K extends OperatorCommand['kind']> = Extract<OperatorCommand, { kind: K }>;

@Injectable()
export class CliCommandsService {
  constructor(
    private readonly clients: ClientsService,
    private readonly keys: ApiKeysService,
    private readonly clock: Clock,
  ) {}

  execute(command: OperatorCommand): Promise<CommandOutput> {
    switch (command.kind) {
      case 'clients create':
        return this.createClient(command);
      case 'clients set-plan':
        return this.setPlan(command);
      case 'clients list':
        return this.listClients();
      case 'keys create':
        return this.createKey(command);
      case 'keys list':
        return this.listKeys(command);
      case 'keys revoke':
        return this.revokeKey(command);
    }
  }

  private async createClient({ name, choice }: CommandOf<'clients create'>): Promise<CommandOutput> {
    const client = await this.clients.create(name, choice.plan, choice.limits);
    return { json: client, text: `Created client ${client.id} "${client.name}" on ${describePlan(client)}.` };
  }

  private async setPlan({ clientId, choice }: CommandOf<'clients set-plan'>): Promise<CommandOutput> {
    const client = await this.clients.setPlan(clientId, choice.plan, choice.limits);
    return { json: client, text: `Client ${client.id} "${client.name}" is now on ${describePlan(client)}.` };
  }

  private async listClients(): Promise<CommandOutput> {
    const clients = await this.clients.list();
    const rows = clients.map((c) => [String(c.id), c.name, c.plan, String(c.limits.perMinute), String(c.limits.perDay), c.createdAt]);
    return {
      json: { clients },
      text: clients.length ? formatTable(['ID', 'NAME', 'PLAN', 'PER MINUTE', 'PER DAY', 'CREATED'], rows) : 'No clients.',
    };
  }

  private async createKey({ owner, expiresInMs }: CommandOf<'keys create'>): Promise<CommandOutput> {
    const expiresAt = expiresInMs === undefined ? null : new Date(this.clock.now().getTime() + expiresInMs);
    const client = await this.ownerOf(owner);
    const { key, apiKey } = await this.keys.issue(client.id, expiresAt);
    const { id, clientId, prefix, createdAt } = apiKey;
    return {
      json: { id, clientId, plan: client.plan, key, prefix, createdAt, expiresAt: apiKey.expiresAt },
      text: [
        `Created key ${id} (${prefix}...) for client ${client.id} "${client.name}" on ${describePlan(client)}, expiring ${apiKey.expiresAt ?? 'never'}.`,
        key,
        'Store it now: the key is shown only this once and cannot be recovered.',
      ].join('\n'),
    };
  }

  private async listKeys({ clientId }: CommandOf<'keys list'>): Promise<CommandOutput> {
    if (clientId !== undefined) await this.clients.get(clientId);
    const keys = await this.keys.list(clientId);
    const rows = keys.map((k) =>
      [k.id, k.clientId, k.prefix, k.createdAt, k.expiresAt, k.revokedAt, k.lastUsedAt].map((v) => String(v ?? '-')),
    );
    return {
      json: { keys },
      text: keys.length ? formatTable(['ID', 'CLIENT', 'PREFIX', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED'], rows) : 'No keys.',
    };
  }

  private async revokeKey({ keyId }: CommandOf<'keys revoke'>): Promise<CommandOutput> {
    const outcome = await this.keys.revoke(keyId);
    if (outcome === 'not-found') throw new CommandFailedError(`No API key with id ${keyId}; nothing was revoked.`);
    const alreadyRevoked = outcome === 'already-revoked';
    return {
      json: { id: keyId, revoked: true, alreadyRevoked },
      text: alreadyRevoked
        ? `Key ${keyId} was already revoked; nothing to do.`
        : `Revoked key ${keyId}. Every server refuses it within 5 seconds.`,
    };
  }

  private ownerOf(owner: KeyOwner): Promise<ClientView> {
    if ('clientId' in owner) return this.clients.get(owner.clientId);
    const { name, plan, limits } = owner.newClient;
    return this.clients.create(name, plan, limits);
  }
}

function describePlan({ plan, limits }: ClientView): string {
  return `plan ${plan} (${limits.perMinute}/min, ${limits.perDay}/day)`;
}
