import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * pet.created as this migration wrote it, in the creating INSERT's statement; its data is the API's Pet
 * (test/webhooks/webhooks.e2e-spec.ts holds the two equal). 1798329600000 moved the event's write off the INSERT.
 */
export const PET_CREATED_EVENT_FUNCTION = `CREATE OR REPLACE FUNCTION webhooks_pet_created() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_id text := 'evt_' || lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000000)::bigint), 16, '0')
    || encode(substr(uuid_send(gen_random_uuid()), 1, 8), 'hex');
BEGIN
  INSERT INTO webhook_events (id, type, body) VALUES (event_id, 'pet.created', json_build_object(
    'id', event_id,
    'type', 'pet.created',
    'createdAt', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'data', json_build_object('id', NEW.id, 'name', NEW.name, 'categoryId', NEW.category_id, 'status', NEW.status)
  )::text);
  RETURN NULL;
END $$`;

/**
 * Endpoints, and the outbox: an event row is written in the transaction of the change that causes it,
 * fanned out into one delivery per endpoint, and each attempt is kept for the deliveries listing.
 */
export class Webhooks1798243200000 implements MigrationInterface {
  name = 'Webhooks1798243200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE webhook_endpoints (
        id bigserial PRIMARY KEY,
        client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
        url varchar(2048) NOT NULL,
        event_types text[] NOT NULL,
        description varchar(200) NOT NULL DEFAULT '',
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason varchar(200),
        secret varchar(64) NOT NULL,
        previous_secret varchar(64),
        previous_secret_until timestamptz,
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX "IDX_webhook_endpoints_client_id_id" ON webhook_endpoints (client_id, id)');
    await queryRunner.query(`
      CREATE TABLE webhook_events (
        id varchar(40) COLLATE "C" PRIMARY KEY,
        type varchar(40) NOT NULL,
        client_id bigint,
        endpoint_id bigint,
        body text NOT NULL,
        once_key varchar(100),
        created_at timestamptz NOT NULL DEFAULT now(),
        dispatched_at timestamptz
      )`);
    await queryRunner.query('CREATE INDEX "IDX_webhook_events_undispatched" ON webhook_events (created_at) WHERE dispatched_at IS NULL');
    // Only the events that happen once have a key; BRIN for the hourly purge: both cost a creation next to nothing.
    await queryRunner.query('CREATE UNIQUE INDEX "UQ_webhook_events_once_key" ON webhook_events (once_key) WHERE once_key IS NOT NULL');
    await queryRunner.query('CREATE INDEX "IDX_webhook_events_created_at" ON webhook_events USING brin (created_at)');
    await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        id bigserial PRIMARY KEY,
        event_id varchar(40) COLLATE "C" NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
        endpoint_id bigint NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        state varchar(10) NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        retries_left integer NOT NULL,
        next_attempt_at timestamptz NOT NULL,
        leased_until timestamptz,
        UNIQUE (event_id, endpoint_id)
      )`);
    await queryRunner.query('CREATE INDEX "IDX_webhook_deliveries_due" ON webhook_deliveries (next_attempt_at) WHERE state = \'pending\'');
    await queryRunner.query('CREATE INDEX "IDX_webhook_deliveries_endpoint_id" ON webhook_deliveries (endpoint_id)');
    await queryRunner.query(`
      CREATE TABLE webhook_attempts (
        id bigserial PRIMARY KEY,
        endpoint_id bigint NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        event_id varchar(40) COLLATE "C" NOT NULL,
        event_type varchar(40) NOT NULL,
        attempt integer NOT NULL,
        attempted_at timestamptz NOT NULL,
        status_code integer,
        error varchar(40),
        duration_ms integer NOT NULL
      )`);
    await queryRunner.query('CREATE INDEX "IDX_webhook_attempts_endpoint_id_id" ON webhook_attempts (endpoint_id, id)');
    await queryRunner.query('CREATE INDEX "IDX_webhook_attempts_attempted_at" ON webhook_attempts (attempted_at)');
    await queryRunner.query(PET_CREATED_EVENT_FUNCTION);
    await queryRunner.query(
      'CREATE TRIGGER webhooks_pet_created AFTER INSERT ON pets FOR EACH ROW EXECUTE FUNCTION webhooks_pet_created()',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER webhooks_pet_created ON pets');
    await queryRunner.query('DROP FUNCTION webhooks_pet_created');
    await queryRunner.query('DROP TABLE webhook_attempts, webhook_deliveries, webhook_events, webhook_endpoints');
  }
}
