import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../platform/database/index.js';
import { IsNull, LessThanOrEqual, Not } from 'typeorm';
import { IdempotencyKey } from './entities/idempotency-key.entity.js';

export interface IdempotencyScope {
  clientId: number;
  keyHash: string;
}

export interface StoredResponse {
  status: number;
  body: unknown;
  location?: string;
}

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

  /** The key's response, unless it expired (the previous release's pending rows have none). */
  async find({ clientId, keyHash }: IdempotencyScope, now: Date): Promise<CompletedKey | undefined> {
    const row = await this.keys.findOneBy({ clientId, keyHash, responseStatus: Not(IsNull()) });
    if (!row || row.expiresAt <= now) return undefined;
    const { responseStatus: status, responseBody, responseLocation: location } = row;
    return {
      fingerprint: row.fingerprint,
      response: { status, body: JSON.parse(responseBody) as unknown, ...(location !== null && { location }) },
    };
  }

  /** In place of an expired one. */
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

  async deleteExpired(now: Date): Promise<number> {
    return (await this.keys.delete({ expiresAt: LessThanOrEqual(now) })).affected ?? 0;
  }
}
