/** Fields several admin schemas share. */
/** Every module's audit actions (AppParts), defined when the admin document is built. */
export const AUDIT_ACTION_SCHEMA = '#/components/schemas/AuditAction';
export const AUDIT_ACTION_PATTERN = '^[a-z][a-z_]*\\.[a-z][a-z_]*$';
export const ID = { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
export const INSTANT = { type: 'string', format: 'date-time', maxLength: 30 } as const;
export const NEXT_CURSOR = {
  type: 'string',
  nullable: true,
  maxLength: 200,
  pattern: '^[A-Za-z0-9._-]+$',
  description: 'Pass as `cursor` for the next page; null on the last page.',
} as const;
