import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `idempotency_keys` now holds completed responses only (a running request is known by its lock).
 * The expand step of a rolling upgrade, in place while the previous release still serves: `state` and
 * `token` get defaults, so a row this release writes reads as completed to the release before it, which
 * keeps replaying; the release after drops the two columns and the pending rows it no longer reads.
 */
export class CompletedIdempotencyKeys1796083200000 implements MigrationInterface {
  name = 'CompletedIdempotencyKeys1796083200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE idempotency_keys ALTER COLUMN state SET DEFAULT 'completed', ALTER COLUMN token SET DEFAULT ''`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE idempotency_keys ALTER COLUMN state DROP DEFAULT, ALTER COLUMN token DROP DEFAULT`);
  }
}
