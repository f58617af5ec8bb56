import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/** The admin API's tokens (docs/contract/decisions.md, "Administration"): a SHA-256 and a display prefix each, never the token. */
export class AdminTokens1798070400000 implements MigrationInterface {
  name = 'AdminTokens1798070400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'admin_tokens',
        columns: [
          { name: 'id', type: 'bigint', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'token_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'prefix', type: 'varchar', length: '32' },
          { name: 'revoked_at', type: 'timestamptz', isNullable: true },
          { name: 'created_at', type: 'timestamptz', default: 'CURRENT_TIMESTAMP' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('admin_tokens');
  }
}
