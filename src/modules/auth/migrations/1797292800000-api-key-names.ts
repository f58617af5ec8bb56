import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Each key's name; keys from before names, and the previous release's during the rollout, get the empty name. */
export class ApiKeyNames1797292800000 implements MigrationInterface {
  name = 'ApiKeyNames1797292800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('api_keys', new TableColumn({ name: 'name', type: 'varchar', length: '100', default: `''` }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('api_keys', 'name');
  }
}
