import { Injectable } from '@nestjs/common';
import { AppParts, Clock } from '../../common/index.js';
import { AuditEventsRepository } from './audit-events.repository.js';
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
