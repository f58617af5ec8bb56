import { DataSource } from 'typeorm';
import { requestContext } from '../../src/common/index.js';
import { TransactionHost } from '../../src/platform/database/index.js';
import { emptyDatabase } from '../support/test-databases.js';

/** A database of this suite's own (test/support/test-databases.ts). */
const DATABASE_URL = await emptyDatabase();

describe('TransactionHost on PostgreSQL (integration)', () => {
  let dataSource: DataSource;
  let host: TransactionHost;
  const insert = (name: string) => host.tx.query('INSERT INTO things (name) VALUES ($1)', [name]);
  const names = async () =>
    (await dataSource.query<Array<{ name: string }>>('SELECT name FROM things ORDER BY name')).map((row) => row.name);

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'postgres', url: DATABASE_URL }).initialize();
    await dataSource.query('CREATE TABLE things (name TEXT)');
    // The request context's own service: the transaction rides in it, in a request or outside one.
    host = new TransactionHost(dataSource, requestContext());
  });
  afterAll(async () => {
    await dataSource.query('DROP TABLE things');
    await dataSource.destroy();
  });
  beforeEach(() => dataSource.query('DELETE FROM things'));

  it('commits the writes made through tx, nested calls included, when the work resolves', async () => {
    await host.withTransaction(async () => {
      expect(host.tx).not.toBe(dataSource.manager);
      await insert('a');
      await host.withTransaction(() => insert('b'));
    });
    expect(await names()).toEqual(['a', 'b']);
  });

  it('rolls them all back when the work throws', async () => {
    const failing = host.withTransaction(async () => {
      await insert('a');
      await host.withTransaction(() => insert('b'));
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    expect(await names()).toEqual([]);
  });
});
