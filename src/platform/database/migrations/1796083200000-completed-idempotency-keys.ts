import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

const TABLE = 'idempotency_keys';
const DEFAULTS = { state: `'completed'`, token: `''` } as const;

/**
 * `idempotency_keys` now holds completed responses only (a running request is known by its lock).
 * The expand step of a rolling upgrade: `state` and `token` get defaults, so a row this release
 * writes reads as completed to the release before it, which keeps replaying; the release after
 * drops the two columns and the pending rows it no longer reads.
 */
export class CompletedIdempotencyKeys1796083200000 implements MigrationInterface {
  name = 'CompletedIdempotencyKeys1796083200000';

  up(queryRunner: QueryRunner): Promise<void> {
    return setDefaults(queryRunner, DEFAULTS);
  }

  down(queryRunner: QueryRunner): Promise<void> {
    return setDefaults(queryRunner, { state: undefined, token: undefined });
  }
}

/** In place on PostgreSQL, where the previous release still serves; SQLite can only rebuild the table. */
async function setDefaults(queryRunner: QueryRunner, defaults: Record<keyof typeof DEFAULTS, string | undefined>): Promise<void> {
  const table = (await queryRunner.getTable(TABLE))!;
  for (const [name, value] of Object.entries(defaults)) {
    if (queryRunner.connection.options.type === 'postgres') {
      await queryRunner.query(`ALTER TABLE ${TABLE} ALTER COLUMN ${name} ${value === undefined ? 'DROP DEFAULT' : `SET DEFAULT ${value}`}`);
    } else {
      const column = table.findColumnByName(name)!;
      await queryRunner.changeColumn(table, column, new TableColumn({ ...column, default: value }));
    }
  }
}
