import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../platform/database/index.js';
import { IsNull, LessThanOrEqual, Not } from 'typeorm';
import { IdempotencyKey } from './entities/idempotency-key.entity.js';
import { isSealed, openReplay, sealReplay } from './sealed-replay.js';

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

/** A completed key as the caller finds it: its response, unless another API key of the client sealed it. */
export interface FoundKey {
  fingerprint: string;
  response: StoredResponse | 'sealed for another api key';
}

/** Completed keys; inside an idempotent request on PostgreSQL, in its transaction. */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(private readonly txHost: TransactionHost) {}

  private get keys() {
    return this.txHost.tx.getRepository(IdempotencyKey);
  }

  /** The key's response, opened with the caller's API key `token`, unless it expired (the previous release's pending rows have none). */
  async find({ clientId, keyHash }: IdempotencyScope, now: Date, token: string): Promise<FoundKey | undefined> {
    const row = await this.keys.findOneBy({ clientId, keyHash, responseStatus: Not(IsNull()) });
    if (!row || row.expiresAt <= now) return undefined;
    const { fingerprint, responseStatus: status, responseBody, responseLocation } = row;
    // The previous release's rows are unsealed: refusing them would let a retry create twice, and they expire within the replay window.
    if (!isSealed(responseBody)) {
      const location = responseLocation ?? undefined;
      return { fingerprint, response: { status, body: JSON.parse(responseBody) as unknown, ...(location !== undefined && { location }) } };
    }
    const opened = openReplay(responseBody, { token, clientId, keyHash });
    if (!opened) return { fingerprint, response: 'sealed for another api key' };
    return { fingerprint, response: { status, body: opened.body, ...(opened.location !== undefined && { location: opened.location }) } };
  }

  /** In place of an expired one; body and Location sealed under the caller's API key `token`, so the row alone reveals neither. */
  async record(
    { clientId, keyHash }: IdempotencyScope,
    { fingerprint, response }: CompletedKey,
    expiresAt: Date,
    token: string,
  ): Promise<void> {
    await this.keys.upsert(
      {
        clientId,
        keyHash,
        fingerprint,
        responseStatus: response.status,
        responseBody: sealReplay(response, { token, clientId, keyHash }),
        responseLocation: null,
        expiresAt,
      },
      ['clientId', 'keyHash'],
    );
  }

  async deleteExpired(now: Date): Promise<number> {
    return (await this.keys.delete({ expiresAt: LessThanOrEqual(now) })).affected ?? 0;
  }
}
