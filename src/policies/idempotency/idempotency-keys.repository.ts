import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../platform/database/index.js';
import { IsNull, LessThanOrEqual, Not } from 'typeorm';
import { IdempotencyKey } from './entities/idempotency-key.entity.js';

/** Whose key it is: the caller's client and the SHA-256 of its Idempotency-Key. */
export interface IdempotencyScope {
  clientId: number;
  keyHash: string;
}

/** The first response, as sent: replayed to a retry. */
export interface StoredResponse {
  status: number;
  body: unknown;
  location?: string;
}

/** A key's first response, with the fingerprint of the body that got it. */
export interface CompletedKey {
  fingerprint: string;
  response: StoredResponse;
}

/** Completed keys; inside an idempotent request on PostgreSQL, in its transaction. */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(private readonly txHost: TransactionHost) {}

  private get keys() {
    return this.txHost.tx.getRepository(IdempotencyKey);
  }

  /** The key's response, unless none was recorded or it expired at or before `now` (the release before's pending rows have none). */
  async find({ clientId, keyHash }: IdempotencyScope, now: Date): Promise<CompletedKey | undefined> {
    const row = await this.keys.findOneBy({ clientId, keyHash, responseStatus: Not(IsNull()) });
    if (!row || row.expiresAt <= now) return undefined;
    const { responseStatus: status, responseBody, responseLocation: location } = row;
    return {
      fingerprint: row.fingerprint,
      response: { status, body: JSON.parse(responseBody) as unknown, ...(location !== null && { location }) },
    };
  }

  /** Records the key's response, in place of an expired one. */
  async record({ clientId, keyHash }: IdempotencyScope, { fingerprint, response }: CompletedKey, expiresAt: Date): Promise<void> {
    await this.keys.upsert(
      {
        clientId,
        keyHash,
        fingerprint,
        responseStatus: response.status,
        responseBody: JSON.stringify(response.body) ?? 'null',
        responseLocation: response.location ?? null,
        expiresAt,
      },
      ['clientId', 'keyHash'],
    );
  }

  /** Deletes the keys that expired at or before `now`; returns how many. */
  async deleteExpired(now: Date): Promise<number> {
    return (await this.keys.delete({ expiresAt: LessThanOrEqual(now) })).affected ?? 0;
  }
}
