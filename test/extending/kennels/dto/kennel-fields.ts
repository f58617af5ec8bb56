/** The schema of a kennel's fields, shared by what is sent and what is answered. */
export const KENNEL_NAME = { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S' } as const;
export const PLACES = { type: 'integer', format: 'int32', minimum: 1, maximum: 100 } as const;
