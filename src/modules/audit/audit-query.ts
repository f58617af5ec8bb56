import { pageStart, ValidationFailedException } from '../../common/index.js';

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

/**
 * The rules of a listing, pure so that the command-line tool refuses a bad one before it opens the
 * database: a ValidationFailedException (400) naming each bad field. A cursor continues only the
 * listing it came from; `beforeId` is absent on the first page.
 */
export function checkAuditQuery({ clientId, action, cursor, limit = DEFAULT_AUDIT_PAGE_SIZE }: AuditQuery, actions: readonly string[]) {
  const problems: { field: string; message: string }[] = [];
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_AUDIT_PAGE_SIZE) {
    problems.push({ field: 'limit', message: `limit must be an integer from 1 to ${MAX_AUDIT_PAGE_SIZE}` });
  }
  if (clientId !== undefined && !(Number.isSafeInteger(clientId) && clientId >= 1)) {
    problems.push({ field: 'clientId', message: 'clientId must be a positive integer' });
  }
  if (action !== undefined && !actions.includes(action)) {
    problems.push({ field: 'action', message: `action must be one of ${actions.join(', ')}` });
  }
  const listing = { clientId: clientId ?? null, action: action ?? null };
  let beforeId: number | undefined;
  try {
    beforeId = pageStart(cursor, listing);
  } catch (error) {
    if (!(error instanceof ValidationFailedException)) throw error;
    problems.push(...(error.details ?? []));
  }
  if (problems.length > 0) throw new ValidationFailedException(problems);
  return { filter: { clientId, action }, beforeId, listing, limit };
}
