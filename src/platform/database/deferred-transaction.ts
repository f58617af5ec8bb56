import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

const current = new AsyncLocalStorage<DeferredTransaction>();

/**
 * SQLite has one connection, shared by every request: two transactions on it would nest, so
 * they take turns. PostgreSQL gives each transaction a connection of its own.
 */
const turns = new WeakMap<DataSource, Promise<void>>();

/**
 * A transaction that begins at the first write of a piece of work (`run`) and ends when the
 * work's owner commits or rolls it back, so what the owner writes at the end commits or vanishes
 * together with the work's own writes. `onBegin` runs first in it. Repositories take part through
 * `DeferredTransaction.manager()`; outside such work they write as usual. Nothing but the
 * transaction itself (BEGIN … COMMIT on one connection) is asked of the server, so it works
 * behind PgBouncer in transaction mode too.
 */
export class DeferredTransaction {
  private runner?: QueryRunner;
  private started?: Promise<EntityManager>;
  private endTurn?: () => void;
  private readonly afterCommitTasks: Array<() => Promise<void>> = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly onBegin: (manager: EntityManager) => Promise<void>,
  ) {}

  /** The manager to write with inside the current work's transaction (begun now if needed); `undefined` outside one. */
  static async manager(): Promise<EntityManager | undefined> {
    return current.getStore()?.begin();
  }

  /**
   * Runs `task` once the current work's writes are committed: at once outside a transaction,
   * after the COMMIT inside one, never if they roll back. The owner's `commit` waits for it.
   */
  static async afterCommit(task: () => Promise<void>): Promise<void> {
    const work = current.getStore();
    if (work?.started) work.afterCommitTasks.push(task);
    else await task();
  }

  /** Runs `work`; its repositories' writes go into this transaction. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return current.run(this, work);
  }

  /** Runs `last` in the transaction, then commits. Does nothing when the work wrote nothing. */
  async commit(last: (manager: EntityManager) => Promise<void>): Promise<void> {
    if (!this.started) return;
    const manager = await this.started;
    try {
      await last(manager);
      await this.runner!.commitTransaction();
    } catch (error) {
      await this.rollback();
      throw error;
    }
    await this.end();
    for (const task of this.afterCommitTasks) await task();
  }

  /** Undoes every write of the work; safe to call whatever the state. */
  async rollback(): Promise<void> {
    if (this.runner?.isTransactionActive) await this.runner.rollbackTransaction().catch(() => undefined);
    await this.end();
  }

  private begin(): Promise<EntityManager> {
    this.started ??= this.start();
    return this.started;
  }

  private async start(): Promise<EntityManager> {
    await this.takeTurn();
    this.runner = this.dataSource.createQueryRunner();
    try {
      await this.runner.startTransaction();
      await this.onBegin(this.runner.manager);
    } catch (error) {
      await this.rollback();
      throw error;
    }
    return this.runner.manager;
  }

  private async takeTurn(): Promise<void> {
    if (this.dataSource.options.type === 'postgres') return;
    const previous = turns.get(this.dataSource) ?? Promise.resolve();
    const mine = new Promise<void>((resolve) => (this.endTurn = resolve));
    turns.set(
      this.dataSource,
      previous.then(() => mine),
    );
    await previous;
  }

  private async end(): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    await runner?.release();
    this.endTurn?.();
    this.endTurn = undefined;
  }
}
