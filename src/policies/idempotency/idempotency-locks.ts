import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../platform/database/index.js';
import type { IdempotencyScope } from './idempotency-keys.repository.js';

/** Who holds a key: this request (it may create), or another one still running, with the same body or another. */
export type KeyHolder = 'this request' | 'same body' | 'other body';

/**
 * Taken without waiting, the body's lock then the key's: a holder has both, so getting only the body's
 * means another body holds the key. The check interval ends a dead replica's backend even mid-statement.
 */
const TAKE_LOCKS = `SELECT set_config('client_connection_check_interval', '1000', true),
  CASE WHEN NOT pg_try_advisory_xact_lock($1) THEN 'same body' WHEN pg_try_advisory_xact_lock($2) THEN 'this request' ELSE 'other body' END AS holder`;

function lockId(...parts: Array<string | number>): string {
  return createHash('sha256').update(parts.join(':')).digest().readBigInt64BE(0).toString();
}

/**
 * Lets one request at a time run under a client's key (until `work` ends); the others learn who holds
 * it. The request runs in one transaction, which its writes join, holding transaction-scoped advisory
 * locks; they end with it, so with a dead replica's connection too.
 */
@Injectable()
export class IdempotencyLocks {
  constructor(private readonly txHost: TransactionHost) {}

  run<T>({ clientId, keyHash }: IdempotencyScope, fingerprint: string, work: (holder: KeyHolder) => Promise<T>): Promise<T> {
    return this.txHost.withTransaction(async () => {
      const locks = [lockId(clientId, keyHash, fingerprint), lockId(clientId, keyHash)];
      const [{ holder }] = await this.txHost.tx.query<Array<{ holder: KeyHolder }>>(TAKE_LOCKS, locks);
      return work(holder);
    });
  }
}
