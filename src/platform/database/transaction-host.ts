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

  constructor(private readonly dataSource: DataSource) {}

  get tx(): EntityManager {
    return this.current.getStore() ?? this.dataSource.manager;
  }

  /** Runs `work` in a transaction, or in the one it is already in. */
  withTransaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return work();
    return this.dataSource.transaction((manager) => this.current.run(manager, work));
  }
}
