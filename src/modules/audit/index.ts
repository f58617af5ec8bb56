export { AuditLog, type AuditRecord } from './audit-log.service.js';
export { AuditModule } from './audit.module.js';
export { checkAuditQuery, DEFAULT_AUDIT_PAGE_SIZE, MAX_AUDIT_PAGE_SIZE, type AuditQuery } from './audit-query.js';
export { AuditService, type AuditEventView, type AuditPage } from './audit.service.js';
export type { ChangeContext } from './change-context.js';
export { Change } from './change.decorator.js';
