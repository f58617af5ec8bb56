import type { QueryRunner } from 'typeorm';

/**
 * The few column types that differ between the two supported drivers. SQLite only
 * auto-increments an `integer` primary key; PostgreSQL gets `bigint` and `timestamptz`.
 */
export function columnTypes(queryRunner: QueryRunner) {
  const postgres = queryRunner.connection.options.type === 'postgres';
  return {
    serialId: postgres ? 'bigint' : 'integer',
    bigint: 'bigint',
    timestamp: postgres ? 'timestamptz' : 'datetime',
  };
}
