import { DeferredTransaction } from '../../platform/database/index.js';
import { lookupOf, type DatabaseIdempotencyStore } from './database-idempotency.store.js';
import type { HeldKey, IdempotencyScope, StoredResponse } from './idempotency.store.js';

/** The table holds the key for another request: this one must create nothing. */
export class KeyHeldElsewhere extends Error {
  constructor(readonly held: HeldKey) {
    super('The Idempotency-Key is held by another request');
  }
}

/**
 * The database transaction an idempotent creation writes in. It begins at the creation's first
 * write by claiming the key in `idempotency_keys` for the reservation (the row a reservation in
 * the database wrote already, or a new row); when another request holds the key there, it throws
 * `KeyHeldElsewhere` and nothing is created. `finish` records the response in the same
 * transaction and commits. So a completed creation is always on record with its animal, and a
 * retry never creates twice, whatever Redis remembers.
 */
export class IdempotentCreation {
  private readonly transaction: DeferredTransaction;

  constructor(
    private readonly ledger: DatabaseIdempotencyStore,
    private readonly scope: IdempotencyScope,
    fingerprint: string,
    private readonly token: string,
  ) {
    this.transaction = new DeferredTransaction(ledger.dataSource, async (manager) => {
      const row = await ledger.claimWithin(manager, scope, fingerprint, token);
      if (row?.token !== token) throw new KeyHeldElsewhere(row ? lookupOf(row) : { state: 'pending', fingerprint });
    });
  }

  /** Runs the handler; its writes go into the transaction. */
  run<T>(handler: () => Promise<T>): Promise<T> {
    return this.transaction.run(handler);
  }

  /** Records the response (none: frees the key) with the creation's writes, and commits. */
  finish(response?: StoredResponse): Promise<void> {
    return this.transaction.commit((manager) => this.ledger.settleWithin(manager, this.scope, this.token, response));
  }

  rollback(): Promise<void> {
    return this.transaction.rollback();
  }
}
