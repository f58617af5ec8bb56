import type { MigrationInterface, QueryRunner } from 'typeorm';
import { COLLECT_NEW_PETS, petCreatedEvents } from './1798329600000-webhook-new-pets.js';

/** The cursor, which is one row: so says LIMIT to the planner, which would otherwise guess a table of them, cost and all. */
const ONE_CURSOR = '(SELECT xid, pet_id FROM webhook_pet_feed LIMIT 1)';

/** Up to `limit` animals past the cursor of `feed` in its order, `(webhook_xid, id)`: LATERAL, so the cursor bounds the index scan. */
const pastCursor = (feed: string, limit: string, final = '') => `${feed} f CROSS JOIN LATERAL (
  SELECT p.id, p.name, p.category_id, p.status, p.created_at, p.webhook_xid FROM pets p
  WHERE (p.webhook_xid, p.id) > (f.xid, f.pet_id) AND p.webhook_xid IS NOT NULL ${final} ORDER BY p.webhook_xid, p.id LIMIT ${limit}
) p`;

/**
 * Writes the `pet.created` events of up to $1 animals (all with NULL) that the feed has not reached, in one statement,
 * and moves its cursor past them. Only animals whose transaction is older than every one still running are taken: they
 * are final, committed or not, so none that commits later can fall behind the cursor. One replica at a time.
 */
export const COLLECT_PET_FEED =
  petCreatedEvents(`feed AS (SELECT xid, pet_id FROM webhook_pet_feed LIMIT 1 FOR UPDATE SKIP LOCKED), pet AS (
  SELECT p.* FROM ${pastCursor('feed', '$1', 'AND p.webhook_xid < pg_snapshot_xmin(pg_current_snapshot())')}
), moved AS (
  UPDATE webhook_pet_feed SET (xid, pet_id) = (SELECT webhook_xid, id FROM pet ORDER BY webhook_xid DESC, id DESC LIMIT 1)
  WHERE EXISTS (SELECT FROM pet)
)`);

/** When the oldest animal the feed has not reached was created, if any. */
export const OLDEST_PAST_CURSOR = `SELECT p.created_at FROM ${pastCursor(ONE_CURSOR, '1')}`;

/**
 * `pet.created` leaves the INSERT altogether: each animal carries its transaction's id (a column default), and the
 * delivery worker reads `pets` as a feed in that order. A trigger, even one that only queued the animal, cost the
 * hottest write 14 to 21 % of PostgreSQL's rate, the indexed column about 8 % (docs/benchmarks.md).
 */
export class WebhookPetFeed1798416000000 implements MigrationInterface {
  name = 'WebhookPetFeed1798416000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Without a default first, so the existing animals are not rewritten; the lock holds creations until the commit.
    await queryRunner.query('ALTER TABLE pets ADD COLUMN webhook_xid xid8');
    await queryRunner.query('ALTER TABLE pets ALTER COLUMN webhook_xid SET DEFAULT pg_current_xact_id()');
    await queryRunner.query('CREATE INDEX "IDX_pets_webhook_xid" ON pets (webhook_xid, id) WHERE webhook_xid IS NOT NULL');
    await queryRunner.query('DROP TRIGGER webhooks_pet_created ON pets');
    // Every transaction that will create an animal from now on is at or past the oldest one running now.
    await queryRunner.query('CREATE TABLE webhook_pet_feed (xid xid8 NOT NULL, pet_id bigint NOT NULL)');
    await queryRunner.query('INSERT INTO webhook_pet_feed VALUES (pg_snapshot_xmin(pg_current_snapshot()), 0)');
    // The animals still queued by the trigger; the previous release's workers find the table empty until it is dropped.
    await queryRunner.query(COLLECT_NEW_PETS, [null]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The trigger first: its lock waits for the creations under way and holds new ones until the commit.
    await queryRunner.query(
      'CREATE TRIGGER webhooks_pet_created AFTER INSERT ON pets FOR EACH ROW EXECUTE FUNCTION webhooks_pet_created()',
    );
    await queryRunner.query(
      `INSERT INTO webhook_new_pets SELECT p.id, p.name, p.category_id, p.status, p.created_at FROM ${pastCursor(ONE_CURSOR, 'ALL')}`,
    );
    await queryRunner.query('DROP TABLE webhook_pet_feed');
    await queryRunner.query('ALTER TABLE pets DROP COLUMN webhook_xid');
  }
}
