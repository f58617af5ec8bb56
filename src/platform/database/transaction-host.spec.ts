import { DataSource } from 'typeorm';
import { TransactionHost } from './transaction-host.js';

describe('TransactionHost', () => {
  let dataSource: DataSource;
  let host: TransactionHost;
  const insert = (name: string) => host.tx.query('INSERT INTO things (name) VALUES (?)', [name]);
  const names = async () =>
    (await dataSource.query<Array<{ name: string }>>('SELECT name FROM things ORDER BY name')).map((row) => row.name);

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query('CREATE TABLE things (name TEXT)');
    host = new TransactionHost(dataSource);
  });
  afterAll(() => dataSource.destroy());
  beforeEach(() => dataSource.query('DELETE FROM things'));

  it('writes through the default manager outside a transaction', async () => {
    expect(host.tx).toBe(dataSource.manager);
    await insert('alone');
    expect(await names()).toEqual(['alone']);
  });

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
