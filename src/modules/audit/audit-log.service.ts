import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/index.js';
import type { AuditAction } from './audit-actions.js';
import type { AuditDetails } from './audit-details.js';
import { AuditEventsRepository } from './audit-events.repository.js';
import { actorName, type ChangeContext } from './change-context.js';

export interface AuditRecord {
  action: AuditAction;
  clientId?: number;
  keyId?: number;
  /** Facts only, never a key, a hash or a token. */
  details?: AuditDetails;
}

/** Writes the audit event of a change. Call it inside the change's `txHost.withTransaction`, after the change's own writes. */
@Injectable()
export class AuditLog {
  constructor(
    private readonly events: AuditEventsRepository,
    private readonly clock: Clock,
  ) {}

  async record({ actor, requestId }: ChangeContext, { action, clientId, keyId, details = {} }: AuditRecord): Promise<void> {
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
