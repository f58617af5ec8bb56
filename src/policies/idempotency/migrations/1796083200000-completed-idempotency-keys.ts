import type { MigrationInterface, QueryRunner } from 'typeorm';

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

/** In place, while the previous release still serves. */
async function setDefaults(queryRunner: QueryRunner, defaults: Record<keyof typeof DEFAULTS, string | undefined>): Promise<void> {
  for (const [name, value] of Object.entries(defaults)) {
    await queryRunner.query(`ALTER TABLE ${TABLE} ALTER COLUMN ${name} ${value === undefined ? 'DROP DEFAULT' : `SET DEFAULT ${value}`}`);
  }
}
