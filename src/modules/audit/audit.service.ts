import { Injectable } from '@nestjs/common';
import { AuditEventsRepository } from './audit-events.repository.js';
import { checkAuditQuery, cursorAfter, type AuditQuery } from './audit-query.js';
import type { AuditEvent } from './entities/audit-event.entity.js';

export type AuditEventView = ReturnType<typeof toAuditEventView>;

export interface AuditPage {
  /** Newest first. */
  items: AuditEventView[];
  /** Gives the next, older page with the same filters; null on the last page. */
  nextCursor: string | null;
}

/** Reads the audit log: the command-line tool's `audit list` and the admin API call the same method. */
@Injectable()
export class AuditService {
  constructor(private readonly events: AuditEventsRepository) {}

  async list(query: AuditQuery): Promise<AuditPage> {
    const { filter, beforeId, limit } = checkAuditQuery(query);
    const page = await this.events.findPage(filter, beforeId, limit);
    const last = page.events.at(-1);
    return {
      items: page.events.map(toAuditEventView),
      nextCursor: page.hasMore && last ? cursorAfter(Number(last.id), filter) : null,
    };
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
