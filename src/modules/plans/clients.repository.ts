import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThan, type Repository } from 'typeorm';
import { Client } from './entities/client.entity.js';
import type { PlanLimits } from './plan-catalogue.js';
import type { PlanChoice } from './plan-rules.js';

const limitColumns = (limits?: PlanLimits) => ({ perMinuteLimit: limits?.perMinute ?? null, perDayLimit: limits?.perDay ?? null });

@Injectable()
export class ClientsRepository {
  constructor(@InjectRepository(Client) private readonly clients: Repository<Client>) {}

  async create({ name, plan, limits }: PlanChoice & { name: string }): Promise<Client> {
    return this.clients.save(this.clients.create({ name, plan, ...limitColumns(limits) }));
  }

  findById(id: number): Promise<Client | null> {
    return this.clients.findOneBy({ id });
  }

  listAll(): Promise<Client[]> {
    return this.clients.find({ order: { id: 'ASC' } });
  }

  /** Up to `take` clients after the id `after`, in id order: a keyset page. */
  findPage(after: number, take: number): Promise<Client[]> {
    return this.clients.find({ where: { id: MoreThan(after) }, order: { id: 'ASC' }, take });
  }

  async changePlan(id: number, plan: string, limits?: PlanLimits): Promise<void> {
    await this.clients.update({ id }, { plan, ...limitColumns(limits) });
  }

  async isEmpty(): Promise<boolean> {
    return !(await this.clients.exists());
  }
}
