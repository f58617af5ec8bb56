import { decodeCursor, encodeCursor, ValidationFailedException } from '../../common/index.js';
import { AUDIT_ACTIONS, isAuditAction } from './audit-actions.js';
import type { AuditFilter } from './audit-events.repository.js';

export const DEFAULT_AUDIT_PAGE_SIZE = 20;
export const MAX_AUDIT_PAGE_SIZE = 100;

/** A listing of the audit log as asked for, by the command-line tool or the admin API. */
export interface AuditQuery {
  clientId?: number;
  action?: string;
  /** The `nextCursor` of the previous page, with the same filters. */
  cursor?: string;
  limit?: number;
}

export interface CheckedAuditQuery {
  filter: AuditFilter;
  /** Events older than this id; absent on the first page. */
  beforeId?: number;
  limit: number;
}

const isPositiveId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

/**
 * The rules of a listing, pure so that the command-line tool refuses a bad one before it opens the
 * database: a ValidationFailedException (400) naming each bad field. A cursor continues only the
 * listing it came from.
 */
export function checkAuditQuery({ clientId, action, cursor, limit = DEFAULT_AUDIT_PAGE_SIZE }: AuditQuery): CheckedAuditQuery {
  const problems: { field: string; message: string }[] = [];
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_AUDIT_PAGE_SIZE) {
    problems.push({ field: 'limit', message: `limit must be an integer from 1 to ${MAX_AUDIT_PAGE_SIZE}` });
  }
  if (clientId !== undefined && !isPositiveId(clientId)) {
    problems.push({ field: 'clientId', message: 'clientId must be a positive integer' });
  }
  if (action !== undefined && !isAuditAction(action)) {
    problems.push({ field: 'action', message: `action must be one of ${AUDIT_ACTIONS.join(', ')}` });
  }
  const filter: AuditFilter = { clientId, action: action as AuditFilter['action'] };
  const beforeId = cursor === undefined ? undefined : positionOf(cursor, filter, problems);
  if (problems.length > 0) throw new ValidationFailedException(problems);
  return { filter, beforeId, limit };
}

export function cursorAfter(id: number, { clientId, action }: AuditFilter): string {
  return encodeCursor({ before: id, clientId: clientId ?? null, action: action ?? null });
}

function positionOf(cursor: string, { clientId, action }: AuditFilter, problems: { field: string; message: string }[]): number | undefined {
  const position = decodeCursor(cursor);
  if (!position || !isPositiveId(position.before)) {
    problems.push({ field: 'cursor', message: 'cursor is malformed; use the nextCursor of the previous page' });
    return undefined;
  }
  if (position.clientId !== (clientId ?? null) || position.action !== (action ?? null)) {
    problems.push({ field: 'cursor', message: 'cursor belongs to a listing with other filters; give the same client and action' });
  }
  return position.before;
}
