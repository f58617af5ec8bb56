export { AuditModule } from './audit.module.js';
export { checkAuditQuery, DEFAULT_AUDIT_PAGE_SIZE, MAX_AUDIT_PAGE_SIZE, type AuditQuery } from './audit-query.js';
export { AuditLog, AuditService, type AuditEventView, type AuditPage } from './audit.service.js';
export { Change, type ChangeContext } from './change-context.js';
