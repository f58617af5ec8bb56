import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * The one way writes join a transaction (docs/extending.md): repositories write through `tx`. The
 * surface of @nestjs-cls/transactional's, which jest cannot load on Node 20 (CommonJS requiring ESM).
 */
@Injectable()
export class TransactionHost {
  private readonly current = new AsyncLocalStorage<EntityManager>();
  /** SQLite's works, chained: each starts when the one before has ended. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {}

  get tx(): EntityManager {
    return this.current.getStore() ?? this.dataSource.manager;
  }

  /**
   * Runs `work` in a transaction, or in the one it is already in. On SQLite, one work at a time and
   * without one: its single connection would take other requests' statements into a transaction held
   * across awaits, and lose them on rollback. Its statements then commit one by one.
   */
  withTransaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return work();
    if (this.dataSource.options.type === 'better-sqlite3') {
      const done = this.queue.then(() => this.current.run(this.dataSource.manager, work));
      this.queue = done.catch(() => undefined);
      return done;
    }
    return this.dataSource.transaction((manager) => this.current.run(manager, work));
  }
}
