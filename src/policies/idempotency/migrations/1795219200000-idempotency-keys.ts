import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Idempotency keys: one row per client and key (reshaped by CompletedIdempotencyKeys1796083200000). */
export class IdempotencyKeys1795219200000 implements MigrationInterface {
  name = 'IdempotencyKeys1795219200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'idempotency_keys',
        columns: [
          { name: 'id', type: 'bigint', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'client_id', type: 'bigint' },
          // SHA-256 of the Idempotency-Key header; the header itself is never stored.
          { name: 'key_hash', type: 'varchar', length: '64' },
          { name: 'fingerprint', type: 'varchar', length: '64' },
          { name: 'state', type: 'varchar', length: '16' },
          { name: 'token', type: 'varchar', length: '36' },
          { name: 'response_status', type: 'integer', isNullable: true },
          { name: 'response_body', type: 'text', isNullable: true },
          { name: 'response_location', type: 'varchar', length: '2048', isNullable: true },
          { name: 'expires_at', type: 'timestamptz' },
          { name: 'created_at', type: 'timestamptz', default: 'CURRENT_TIMESTAMP' },
        ],
        // Makes "insert if absent" atomic across replicas.
        uniques: [{ name: 'UQ_idempotency_keys_client_key', columnNames: ['client_id', 'key_hash'] }],
        checks: [{ name: 'CHK_idempotency_keys_state', expression: `state IN ('pending', 'completed')` }],
      }),
    );
    // The hourly purge of expired keys reads by expiry.
    await queryRunner.createIndex(
      'idempotency_keys',
      new TableIndex({ name: 'IDX_idempotency_keys_expires_at', columnNames: ['expires_at'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('idempotency_keys');
  }
}
