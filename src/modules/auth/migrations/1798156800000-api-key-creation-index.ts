import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Each replica asks twice a second for the keys created in the last minute (the issued-keys filter): an index seek, not a scan. */
export class ApiKeyCreationIndex1798156800000 implements MigrationInterface {
  name = 'ApiKeyCreationIndex1798156800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('api_keys', new TableIndex({ name: 'IDX_api_keys_created_at', columnNames: ['created_at'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('api_keys', 'IDX_api_keys_created_at');
  }
}
