import { DataSource } from 'typeorm';
import { DeferredTransaction } from './deferred-transaction.js';

describe('DeferredTransaction.afterCommit', () => {
  let dataSource: DataSource;
  const events: string[] = [];
  const note = (event: string) => () => {
    events.push(event);
    return Promise.resolve();
  };

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query('CREATE TABLE things (name TEXT)');
  });
  afterAll(() => dataSource.destroy());
  beforeEach(() => events.splice(0));

  const writeIn = (transaction: DeferredTransaction) =>
    transaction.run(async () => {
      const manager = (await DeferredTransaction.manager())!;
      await manager.query("INSERT INTO things (name) VALUES ('x')");
      await DeferredTransaction.afterCommit(note('task'));
      events.push('work done');
    });

  it('runs the task at once outside a transaction', async () => {
    await DeferredTransaction.afterCommit(note('task'));
    expect(events).toEqual(['task']);
  });

  it('runs the task after the COMMIT, before the owner goes on', async () => {
    const transaction = new DeferredTransaction(dataSource, () => Promise.resolve());
    await writeIn(transaction);
    await transaction.commit(() => Promise.resolve(void events.push('last write')));
    events.push('owner goes on');
    expect(events).toEqual(['work done', 'last write', 'task', 'owner goes on']);
  });

  it('never runs the task when the writes roll back', async () => {
    const transaction = new DeferredTransaction(dataSource, () => Promise.resolve());
    await writeIn(transaction);
    await transaction.rollback();
    expect(events).toEqual(['work done']);
  });
});
