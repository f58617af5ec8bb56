import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Requests admitted and refused per client, key and UTC day, added to by every replica's flushes.
 * The primary key leads with the client and the day, the range a client's usage is read by; the
 * retention deletes by day alone.
 */
export class UsageDays1797984000000 implements MigrationInterface {
  name = 'UsageDays1797984000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'usage_days',
        columns: [
          { name: 'client_id', type: 'bigint', isPrimary: true },
          { name: 'day', type: 'date', isPrimary: true },
          { name: 'key_id', type: 'bigint', isPrimary: true },
          { name: 'admitted', type: 'bigint', default: 0 },
          { name: 'refused', type: 'bigint', default: 0 },
        ],
      }),
    );
    await queryRunner.createIndex('usage_days', new TableIndex({ name: 'IDX_usage_days_day', columnNames: ['day'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('usage_days');
  }
}
