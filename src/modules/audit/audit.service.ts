import { Injectable } from '@nestjs/common';
import { AuditEventsRepository } from './audit-events.repository.js';
import { AppParts, toPage, type Page } from '../../common/index.js';
import { checkAuditQuery, type AuditQuery } from './audit-query.js';
import type { AuditEvent } from './entities/audit-event.entity.js';

export type AuditEventView = ReturnType<typeof toAuditEventView>;

/** Newest first; the cursor gives the next, older page with the same filters. */
export type AuditPage = Page<AuditEventView>;

/** Reads the audit log: the command-line tool's `audit list` and the admin API call the same method. */
@Injectable()
export class AuditService {
  constructor(
    private readonly events: AuditEventsRepository,
    private readonly parts: AppParts,
  ) {}

  async list(query: AuditQuery): Promise<AuditPage> {
    const { filter, beforeId, listing, limit } = checkAuditQuery(query, this.parts.auditActions);
    const { items, nextCursor } = toPage(await this.events.findPage(filter, beforeId, limit + 1), limit, listing);
    return { items: items.map(toAuditEventView), nextCursor };
  }
}

function toAuditEventView(event: AuditEvent) {
  return {
    id: Number(event.id),
    occurredAt: event.occurredAt.toISOString(),
    actor: event.actor,
    action: event.action,
    clientId: event.clientId === null ? null : Number(event.clientId),
    keyId: event.keyId === null ? null : Number(event.keyId),
    requestId: event.requestId,
    details: event.details,
  };
}
