/** What an audit event says happened (docs/contract/decisions.md, "Audit"). Names never change once written. */
export const AUDIT_ACTIONS = [
  'client.created',
  'client.plan_changed',
  'key.created',
  'key.rolled',
  'key.revoked',
  'admin_token.created',
  'admin_token.revoked',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}
