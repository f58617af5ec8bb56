import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock, HourlyPurge } from '../../common/index.js';
import { TransactionHost } from '../../platform/database/index.js';
import { IsNull, LessThanOrEqual, Not } from 'typeorm';
import { IdempotencyKey } from './entities/idempotency-key.entity.js';
import { isSealed, openReplay, sealReplay, type ReplayContent } from './sealed-replay.js';

export type IdempotencyScope = { clientId: number; keyHash: string };
export type StoredResponse = ReplayContent & { status: number };

/** Who holds a key: this request (it may create), or another one still running, with the same body or another. */
export type KeyHolder = 'this request' | 'same body' | 'other body';

// Taken without waiting, the body's lock then the key's: a holder has both, so getting only the body's means another
// body holds the key. The check interval ends a dead replica's backend even mid-statement.
const TAKE_LOCKS = `SELECT set_config('client_connection_check_interval', '1000', true),
  CASE WHEN NOT pg_try_advisory_xact_lock($1) THEN 'same body' WHEN pg_try_advisory_xact_lock($2) THEN 'this request' ELSE 'other body' END AS holder`;

function lockId(...parts: Array<string | number>): string {
  return createHash('sha256').update(parts.join(':')).digest().readBigInt64BE(0).toString();
}

/** A completed key as the caller finds it: its response, unless another API key of the client sealed it. */
export type FoundKey = { fingerprint: string; response: StoredResponse | 'sealed for another api key' };

/** Completed keys, and the locks of those in progress; inside an idempotent request, in its transaction. */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(private readonly txHost: TransactionHost) {}

  private get keys() {
    return this.txHost.tx.getRepository(IdempotencyKey);
  }

  /** One request at a time under a key, in a transaction its writes join; its advisory locks end with it, a dead replica's too. */
  underLock<T>({ clientId, keyHash }: IdempotencyScope, fingerprint: string, work: (holder: KeyHolder) => Promise<T>): Promise<T> {
    return this.txHost.withTransaction(async () => {
      const locks = [lockId(clientId, keyHash, fingerprint), lockId(clientId, keyHash)];
      const [{ holder }] = await this.txHost.tx.query<Array<{ holder: KeyHolder }>>(TAKE_LOCKS, locks);
      return work(holder);
    });
  }

  /** The unexpired response (the release before's pending rows have none); a sealed one opens only for the API key that sealed it. */
  async find({ clientId, keyHash }: IdempotencyScope, now: Date, sealedFor?: string): Promise<FoundKey | undefined> {
    const row = await this.keys.findOneBy({ clientId, keyHash, responseStatus: Not(IsNull()) });
    if (!row || row.expiresAt <= now) return undefined;
    const { fingerprint, responseStatus: status, responseBody, responseLocation } = row;
    const content = !isSealed(responseBody)
      ? { body: JSON.parse(responseBody) as unknown, location: responseLocation ?? undefined }
      : sealedFor === undefined
        ? undefined
        : openReplay(responseBody, { token: sealedFor, clientId, keyHash });
    return { fingerprint, response: content ? { status, ...content } : 'sealed for another api key' };
  }

  /** In place of an expired one; with `sealedFor`, body and Location sealed under that API key, so the row alone reveals neither. */
  async record(
    { clientId, keyHash }: IdempotencyScope,
    { fingerprint, response }: { fingerprint: string; response: StoredResponse },
    expiresAt: Date,
    sealedFor?: string,
  ): Promise<void> {
    const sealed = sealedFor !== undefined;
    const responseBody = sealed ? sealReplay(response, { token: sealedFor, clientId, keyHash }) : (JSON.stringify(response.body) ?? 'null');
    const responseLocation = sealed ? null : (response.location ?? null);
    const row = { clientId, keyHash, fingerprint, responseStatus: response.status, responseBody, responseLocation, expiresAt };
    await this.keys.upsert(row, ['clientId', 'keyHash']);
  }
}

/** Deletes expired idempotency keys every hour, so the table holds about one day of keys. */
@Injectable()
export class ExpiredKeysPurge extends HourlyPurge {
  constructor(
    private readonly txHost: TransactionHost,
    private readonly clock: Clock,
  ) {
    super('IdempotencyKeys', 'expired idempotency keys');
  }

  protected async purge(): Promise<number> {
    return (await this.txHost.tx.getRepository(IdempotencyKey).delete({ expiresAt: LessThanOrEqual(this.clock.now()) })).affected ?? 0;
  }
}
