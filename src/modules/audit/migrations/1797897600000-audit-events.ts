import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/** The audit log. No foreign keys: an event outlives what it names. */
export class AuditEvents1797897600000 implements MigrationInterface {
  name = 'AuditEvents1797897600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'audit_events',
        columns: [
          { name: 'id', type: 'bigint', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'occurred_at', type: 'timestamptz' },
          { name: 'actor', type: 'varchar', length: '40' },
          { name: 'action', type: 'varchar', length: '40' },
          { name: 'client_id', type: 'bigint', isNullable: true },
          { name: 'key_id', type: 'bigint', isNullable: true },
          { name: 'request_id', type: 'varchar', length: '128', isNullable: true },
          { name: 'details', type: 'text' },
        ],
        indices: [
          { name: 'IDX_audit_events_client_id_id', columnNames: ['client_id', 'id'] },
          { name: 'IDX_audit_events_action_id', columnNames: ['action', 'id'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('audit_events');
  }
}
