import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThan, type Repository } from 'typeorm';
import { TransactionHost } from '../../platform/database/index.js';
import { Client } from './entities/client.entity.js';
import type { PlanChoice, PlanLimits } from './plan-catalogue.js';

const limitColumns = (limits?: PlanLimits) => ({ perMinuteLimit: limits?.perMinute ?? null, perDayLimit: limits?.perDay ?? null });

/** Writes join the change's transaction through `txHost.tx`, so a change commits with its audit event. */
@Injectable()
export class ClientsRepository {
  constructor(
    @InjectRepository(Client) private readonly clients: Repository<Client>,
    private readonly txHost: TransactionHost,
  ) {}

  async create({ name, plan, limits }: PlanChoice & { name: string }): Promise<Client> {
    const clients = this.txHost.tx.getRepository(Client);
    return clients.save(clients.create({ name, plan, ...limitColumns(limits) }));
  }

  findById(id: number): Promise<Client | null> {
    return this.clients.findOneBy({ id });
  }

  /** Call within a transaction: the row is locked until it ends, so concurrent changes see each other's outcome. */
  findForChange(id: number): Promise<Client | null> {
    return this.txHost.tx.getRepository(Client).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Up to `take` clients (all without) after the id `after` (from the first without), in id order. */
  findPage(after?: number, take?: number): Promise<Client[]> {
    return this.clients.find({ where: after === undefined ? {} : { id: MoreThan(after) }, order: { id: 'ASC' }, take });
  }

  async changePlan(client: Client, { plan, limits }: PlanChoice): Promise<Client> {
    const columns = { plan, ...limitColumns(limits) };
    await this.txHost.tx.getRepository(Client).update({ id: client.id }, columns);
    return { ...client, ...columns };
  }

  async isEmpty(): Promise<boolean> {
    return !(await this.clients.exists());
  }
}
