import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Clock, DEFAULT_PAGE_SIZE, LookupCache, pageStart, toPage, type PageRequest } from '../../common/index.js';
import { TransactionHost } from '../../platform/database/index.js';
import { AuditLog, type ChangeContext } from '../audit/index.js';
import { ClientsRepository } from './clients.repository.js';
import type { Client } from './entities/client.entity.js';
import { clientName, ClientNotFoundError, limitsFor, planChoice, type CustomLimits } from './plan-catalogue.js';

export type ClientView = ReturnType<typeof toClientView>;
type Quota = Pick<ClientView, 'plan' | 'limits'>;

/** Published in the change's transaction when an operator changes a client's plan or limits. */
export const PLAN_CHANGED = 'client.plan_changed';

export interface PlanChanged {
  clientId: number;
  from: Quota;
  to: Quota;
}

/** A plan change reaches every replica's limiter within `freshMs`; without the database, quotas read within `staleMs` serve. */
const QUOTA_CACHE = { max: 10_000, freshMs: 5_000, staleMs: 5 * 60_000 };

@Injectable()
export class ClientsService {
  private readonly quotas = new LookupCache<number, Quota>(this.clock, QUOTA_CACHE);

  constructor(
    private readonly clients: ClientsRepository,
    private readonly txHost: TransactionHost,
    private readonly audit: AuditLog,
    private readonly events: EventEmitter2,
    private readonly clock: Clock,
  ) {}

  /** Through a short cache, so the rate limiter stays off the database. */
  async quotaOf(id: number): Promise<Quota> {
    const quota = await this.quotas.get(id, async () => {
      const client = await this.clients.findById(id);
      return client && { plan: client.plan, limits: limitsFor(client.plan, client) };
    });
    if (!quota) throw new ClientNotFoundError(id);
    return quota;
  }

  async create(name: string, plan: string, custom: CustomLimits = {}, context: ChangeContext): Promise<ClientView> {
    const choice = planChoice(plan, custom);
    const named = clientName(name);
    return this.txHost.withTransaction(async () => {
      const client = toClientView(await this.clients.create({ name: named, ...choice }));
      await this.audit.record(context, { action: 'client.created', clientId: client.id, details: planOf(client) });
      return client;
    });
  }

  async setPlan(id: number, plan: string, custom: CustomLimits = {}, context: ChangeContext): Promise<ClientView> {
    const choice = planChoice(plan, custom);
    return this.txHost.withTransaction(async () => {
      const client = await this.clients.findForChange(id);
      if (!client) throw new ClientNotFoundError(id);
      const before = toClientView(client);
      const after = toClientView(await this.clients.changePlan(client, choice));
      const change: PlanChanged = { clientId: id, from: planOf(before), to: planOf(after) };
      await this.audit.record(context, { action: 'client.plan_changed', clientId: id, details: { from: change.from, to: change.to } });
      await this.events.emitAsync(PLAN_CHANGED, change);
      return after;
    });
  }

  async get(id: number): Promise<ClientView> {
    const client = await this.clients.findById(id);
    if (!client) throw new ClientNotFoundError(id);
    return toClientView(client);
  }

  async list(): Promise<ClientView[]> {
    return (await this.clients.findPage()).map(toClientView);
  }

  /** Clients in id order, a page at a time: the command-line tool and the admin API list with this one method. */
  async listPage({ cursor, limit = DEFAULT_PAGE_SIZE }: PageRequest = {}): Promise<{ clients: ClientView[]; nextCursor: string | null }> {
    const rows = await this.clients.findPage(pageStart(cursor, {}), limit + 1);
    const { items, nextCursor } = toPage(rows, limit, {});
    return { clients: items.map(toClientView), nextCursor };
  }

  isEmpty(): Promise<boolean> {
    return this.clients.isEmpty();
  }
}

/** What an audit event says of a client's plan. */
const planOf = ({ plan, limits }: ClientView) => ({ plan, limits });

function toClientView(client: Client) {
  return {
    // A saved entity carries the generated bigint as PostgreSQL's driver returns it, a string.
    id: Number(client.id),
    name: client.name,
    plan: client.plan,
    limits: limitsFor(client.plan, client),
    createdAt: client.createdAt.toISOString(),
  };
}
