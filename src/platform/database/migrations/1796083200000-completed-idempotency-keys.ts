import { TableCheck, TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

const TABLE = 'idempotency_keys';
const STATE_CHECK = new TableCheck({ name: 'CHK_idempotency_keys_state', expression: `state IN ('pending', 'completed')` });

/**
 * `idempotency_keys` holds completed responses only: a request still running is known by the
 * lock it holds, not by a row. Pending rows, and the columns that only they needed, go.
 */
export class CompletedIdempotencyKeys1796083200000 implements MigrationInterface {
  name = 'CompletedIdempotencyKeys1796083200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM ${TABLE} WHERE state = 'pending'`);
    await queryRunner.dropCheckConstraint(TABLE, STATE_CHECK.name!);
    await queryRunner.dropColumns(TABLE, ['state', 'token']);
    await queryRunner.changeColumn(TABLE, 'response_status', new TableColumn({ name: 'response_status', type: 'integer' }));
    await queryRunner.changeColumn(TABLE, 'response_body', new TableColumn({ name: 'response_body', type: 'text' }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.changeColumn(
      TABLE,
      'response_status',
      new TableColumn({ name: 'response_status', type: 'integer', isNullable: true }),
    );
    await queryRunner.changeColumn(TABLE, 'response_body', new TableColumn({ name: 'response_body', type: 'text', isNullable: true }));
    await queryRunner.addColumns(TABLE, [
      new TableColumn({ name: 'state', type: 'varchar', length: '16', default: `'completed'` }),
      new TableColumn({ name: 'token', type: 'varchar', length: '36', default: `''` }),
    ]);
    await queryRunner.createCheckConstraint(TABLE, STATE_CHECK);
  }
}
