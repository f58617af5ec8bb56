import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * The one way writes join a transaction (docs/extending.md): repositories write through `tx`, the
 * manager of the transaction `withTransaction` runs, else the default one. It has the surface of
 * @nestjs-cls/transactional's TransactionHost, which jest cannot load on Node 20 (a CommonJS
 * package that requires the ESM-only @nestjs/common).
 */
@Injectable()
export class TransactionHost {
  private readonly current = new AsyncLocalStorage<EntityManager>();

  constructor(private readonly dataSource: DataSource) {}

  get tx(): EntityManager {
    return this.current.getStore() ?? this.dataSource.manager;
  }

  /** Runs `work` in a transaction, or in the one it is already in: committed if it resolves, else rolled back. */
  withTransaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return work();
    return this.dataSource.transaction((manager) => this.current.run(manager, work));
  }
}
