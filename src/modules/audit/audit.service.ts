import { Injectable } from '@nestjs/common';
import { AppParts, Clock, toPage, type Page } from '../../common/index.js';
import { AuditEventsRepository } from './audit-events.repository.js';
import { checkAuditQuery, type AuditQuery } from './audit-query.js';
import { actorName, type ChangeContext } from './change-context.js';
import type { AuditEvent } from './entities/audit-event.entity.js';

export interface AuditRecord {
  /** One its module declares in its `@ModuleParts({ auditActions })`. */
  action: string;
  clientId?: number;
  keyId?: number;
  /** Facts only, never a key, a hash or a token. */
  details?: AuditEvent['details'];
}

/** Writes the audit event of a change. Call it inside the change's `txHost.withTransaction`, after the change's own writes. */
@Injectable()
export class AuditLog {
  constructor(
    private readonly events: AuditEventsRepository,
    private readonly clock: Clock,
    private readonly parts: AppParts,
  ) {}

  async record({ actor, requestId }: ChangeContext, { action, clientId, keyId, details = {} }: AuditRecord): Promise<void> {
    if (!this.parts.auditActions.includes(action)) throw new Error(`No module declares the audit action "${action}" in its @ModuleParts`);
    await this.events.insert({
      occurredAt: this.clock.now(),
      actor: actorName(actor),
      action,
      clientId: clientId ?? null,
      keyId: keyId ?? null,
      requestId: requestId ?? null,
      details,
    });
  }
}

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
