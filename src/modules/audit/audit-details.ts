/** The non-secret facts of a change (a plan change's old and new plan, a roll's successor), stored as JSON. */
export type AuditDetails = Readonly<Record<string, unknown>>;
