/** The column types the migrations share: int64 ids and counts, instants with their time zone. */
export const columnTypes = { serialId: 'bigint', bigint: 'bigint', timestamp: 'timestamptz' } as const;
