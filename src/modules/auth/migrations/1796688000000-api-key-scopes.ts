import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Each key's scopes, space-separated. The default gives every existing key, and every key the previous
 * release creates during the rollout, what keys could do before scopes: read and write pets. Written
 * out here, not read from the scope catalogue, so the migration stays what it was when it ran.
 */
export class ApiKeyScopes1796688000000 implements MigrationInterface {
  name = 'ApiKeyScopes1796688000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'api_keys',
      new TableColumn({ name: 'scopes', type: 'varchar', length: '200', default: `'pets:read pets:write'` }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('api_keys', 'scopes');
  }
}
