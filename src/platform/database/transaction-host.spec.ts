import { DataSource } from 'typeorm';
import { TransactionHost } from './transaction-host.js';

/** SQLite's side; PostgreSQL's transactions: test/database/transaction-host.postgres.int-spec.ts. */
describe('TransactionHost on SQLite', () => {
  let dataSource: DataSource;
  let host: TransactionHost;
  const insert = (name: string) => host.tx.query('INSERT INTO things (name) VALUES (?)', [name]);
  const names = async () =>
    (await dataSource.query<Array<{ name: string }>>('SELECT name FROM things ORDER BY name')).map((row) => row.name);
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query('CREATE TABLE things (name TEXT)');
    host = new TransactionHost(dataSource);
  });
  afterAll(() => dataSource.destroy());
  beforeEach(() => dataSource.query('DELETE FROM things'));

  it('writes through the default manager, inside a work too', async () => {
    expect(host.tx).toBe(dataSource.manager);
    await host.withTransaction(async () => {
      expect(host.tx).toBe(dataSource.manager);
      await insert('a');
      await host.withTransaction(() => insert('nested'));
    });
    expect(await names()).toEqual(['a', 'nested']);
  });

  it('runs one work at a time: the second starts when the first has ended', async () => {
    const order: string[] = [];
    let release!: () => void;
    const first = host.withTransaction(async () => {
      order.push('first started');
      await new Promise<void>((resolve) => (release = resolve));
      order.push('first ended');
    });
    const second = host.withTransaction(() => {
      order.push('second started');
      return Promise.resolve();
    });
    await tick();
    expect(order).toEqual(['first started']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first started', 'first ended', 'second started']);
  });

  it('keeps the writes of other requests when a work fails, and runs the next one', async () => {
    const failing = host.withTransaction(async () => {
      await insert('in the work');
      await dataSource.query('INSERT INTO things (name) VALUES (?)', ['another request']);
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    await host.withTransaction(() => insert('next'));
    expect(await names()).toEqual(['another request', 'in the work', 'next']);
  });
});
