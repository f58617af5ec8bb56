import { Injectable } from '@nestjs/common';
import { ClsService } from 'nestjs-cls';
import { DataSource, type EntityManager } from 'typeorm';
import type { RequestContext } from '../../common/index.js';

/**
 * The one way writes join a transaction (docs/extending.md): repositories write through `tx`, which is
 * the transaction's manager while `withTransaction` runs, carried in the request context (nestjs-cls).
 */
@Injectable()
export class TransactionHost {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cls: ClsService<RequestContext>,
  ) {}

  get tx(): EntityManager {
    return this.cls.get('transaction') ?? this.dataSource.manager;
  }

  /** Runs `work` in a transaction, or in the one it is already in; also outside a request (the command-line tool). */
  withTransaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.cls.get('transaction')) return work();
    return this.dataSource.transaction((transaction) => this.cls.runWith({ ...this.cls.get(), transaction }, work));
  }
}
