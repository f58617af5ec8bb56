import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Completed responses only (a running request is known by its lock), expanding in place: with these defaults the release
 * before reads this one's rows as completed and keeps replaying; the release after drops the columns and pending rows.
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
