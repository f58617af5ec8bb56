import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, type Repository } from 'typeorm';
import { TransactionHost } from '../../platform/database/index.js';
import type { AuditQuery } from './audit-query.js';
import { AuditEvent } from './entities/audit-event.entity.js';

@Injectable()
export class AuditEventsRepository {
  constructor(
    @InjectRepository(AuditEvent) private readonly events: Repository<AuditEvent>,
    private readonly txHost: TransactionHost,
  ) {}

  /** Through `txHost.tx`: the event commits with the change it records, or not at all. */
  async insert(event: Omit<AuditEvent, 'id'>): Promise<void> {
    const events = this.txHost.tx.getRepository(AuditEvent);
    await events.save(events.create(event));
  }

  /** Up to `take` events with an id below `beforeId` (all when absent), newest first: one seek on the primary key or an index. */
  findPage(
    { clientId, action }: Pick<AuditQuery, 'clientId' | 'action'>,
    beforeId: number | undefined,
    take: number,
  ): Promise<AuditEvent[]> {
    return this.events.find({
      where: {
        ...(beforeId !== undefined && { id: LessThan(beforeId) }),
        ...(clientId !== undefined && { clientId }),
        ...(action !== undefined && { action }),
      },
      order: { id: 'DESC' },
      take,
    });
  }
}
