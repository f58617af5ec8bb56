import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Each key's name, chosen by its client (`POST /v1/keys`). Keys from before names existed, and those the
 * previous release creates during the rollout, get the empty name.
 */
export class ApiKeyNames1797292800000 implements MigrationInterface {
  name = 'ApiKeyNames1797292800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('api_keys', new TableColumn({ name: 'name', type: 'varchar', length: '100', default: `''` }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('api_keys', 'name');
  }
}
