import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export class InitialSchema1767225600000 implements MigrationInterface {
  name = 'InitialSchema1767225600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const id = { name: 'id', type: 'bigint', isPrimary: true, isGenerated: true, generationStrategy: 'increment' } as const;
    const createdAt = { name: 'created_at', type: 'timestamptz', default: 'CURRENT_TIMESTAMP' };

    await queryRunner.createTable(
      new Table({
        name: 'pets',
        columns: [
          id,
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'category_id', type: 'bigint' },
          { name: 'status', type: 'varchar', length: '16' },
          createdAt,
        ],
        checks: [{ name: 'CHK_pets_status', expression: `status IN ('available', 'pending', 'sold')` }],
      }),
    );
    // Keyset pages filtered by status seek on (status, id); unfiltered pages use the primary key.
    await queryRunner.createIndex('pets', new TableIndex({ name: 'IDX_pets_status_id', columnNames: ['status', 'id'] }));

    await queryRunner.createTable(
      new Table({
        name: 'clients',
        columns: [
          id,
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'plan', type: 'varchar', length: '32' },
          { name: 'per_minute_limit', type: 'bigint', isNullable: true },
          { name: 'per_day_limit', type: 'bigint', isNullable: true },
          createdAt,
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          id,
          { name: 'client_id', type: 'bigint' },
          { name: 'key_hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'prefix', type: 'varchar', length: '16' },
          { name: 'expires_at', type: 'timestamptz', isNullable: true },
          { name: 'revoked_at', type: 'timestamptz', isNullable: true },
          { name: 'last_used_at', type: 'timestamptz', isNullable: true },
          createdAt,
        ],
        foreignKeys: [
          {
            name: 'FK_api_keys_client',
            columnNames: ['client_id'],
            referencedTableName: 'clients',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
        indices: [{ name: 'IDX_api_keys_client_id', columnNames: ['client_id'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('api_keys');
    await queryRunner.dropTable('clients');
    await queryRunner.dropTable('pets');
  }
}
