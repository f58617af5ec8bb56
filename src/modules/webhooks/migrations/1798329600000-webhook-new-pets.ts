import type { MigrationInterface, QueryRunner } from 'typeorm';
import { PET_CREATED_EVENT_FUNCTION } from './1798243200000-webhooks.js';

/**
 * Writes a `pet.created` event for each animal of `ctes`' last one, `pet` (id, name, category_id, status, created_at): the
 * same id and body as any event, dated by the creation.
 */
export const petCreatedEvents = (ctes: string) => `WITH ${ctes}, event AS (
  SELECT *, 'evt_' || lpad(to_hex((extract(epoch FROM created_at) * 1000000)::bigint), 16, '0')
    || encode(substr(uuid_send(gen_random_uuid()), 1, 8), 'hex') AS event_id FROM pet
)
INSERT INTO webhook_events (id, type, body, created_at)
SELECT event_id, 'pet.created', json_build_object('id', event_id, 'type', 'pet.created',
  'createdAt', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'data', json_build_object('id', id, 'name', name, 'categoryId', category_id, 'status', status))::text, created_at
FROM event RETURNING id`;

/** Moves up to $1 queued animals (all with NULL) into their events in one statement, so none is lost. */
export const COLLECT_NEW_PETS = petCreatedEvents(`pet AS (
  DELETE FROM webhook_new_pets WHERE ctid = ANY (ARRAY(SELECT ctid FROM webhook_new_pets LIMIT $1 FOR UPDATE SKIP LOCKED))
  RETURNING id, name, category_id, status, created_at
)`);

/**
 * `pet.created` leaves the creating INSERT: its trigger now only queues the animal in an unindexed table, and
 * the delivery worker writes the event from there (`OutboxRepository.dispatch`): an event row with its four
 * indexes, built in plpgsql, cost the hottest write more throughput than the house allows (docs/benchmarks.md).
 */
export class WebhookNewPets1798329600000 implements MigrationInterface {
  name = 'WebhookNewPets1798329600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // The columns the event shows, and no index: queuing costs the INSERT one row.
    await queryRunner.query(
      'CREATE TABLE webhook_new_pets (id bigint NOT NULL, name varchar(100) NOT NULL, category_id bigint NOT NULL, status varchar(16) NOT NULL, created_at timestamptz NOT NULL)',
    );
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION webhooks_pet_created() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO webhook_new_pets VALUES (NEW.id, NEW.name, NEW.category_id, NEW.status, NEW.created_at);
        RETURN NULL;
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(PET_CREATED_EVENT_FUNCTION);
    await queryRunner.query(COLLECT_NEW_PETS, [null]);
    await queryRunner.query('DROP TABLE webhook_new_pets');
  }
}
