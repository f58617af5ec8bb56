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

/** Completed keys; inside an idempotent request, in its transaction. */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(private readonly txHost: TransactionHost) {}

  private get keys() {
    return this.txHost.tx.getRepository(IdempotencyKey);
  }

  /**
   * The key's response, unless it expired (the previous release's pending rows have none). A sealed
   * one opens only with the API key `sealedFor` that recorded it.
   */
  async find({ clientId, keyHash }: IdempotencyScope, now: Date, sealedFor?: string): Promise<FoundKey | undefined> {
    const row = await this.keys.findOneBy({ clientId, keyHash, responseStatus: Not(IsNull()) });
    if (!row || row.expiresAt <= now) return undefined;
    const { fingerprint, responseStatus: status, responseBody, responseLocation } = row;
    if (!isSealed(responseBody)) {
      const location = responseLocation ?? undefined;
      return { fingerprint, response: { status, body: JSON.parse(responseBody) as unknown, ...(location !== undefined && { location }) } };
    }
    const opened = sealedFor === undefined ? undefined : openReplay(responseBody, { token: sealedFor, clientId, keyHash });
    if (!opened) return { fingerprint, response: 'sealed for another api key' };
    return { fingerprint, response: { status, body: opened.body, ...(opened.location !== undefined && { location: opened.location }) } };
  }

  /** In place of an expired one; with `sealedFor`, body and Location sealed under that API key, so the row alone reveals neither. */
  async record(
    { clientId, keyHash }: IdempotencyScope,
    { fingerprint, response }: CompletedKey,
    expiresAt: Date,
    sealedFor?: string,
  ): Promise<void> {
    const sealed = sealedFor !== undefined;
    await this.keys.upsert(
      {
        clientId,
        keyHash,
        fingerprint,
        responseStatus: response.status,
        responseBody: sealed ? sealReplay(response, { token: sealedFor, clientId, keyHash }) : (JSON.stringify(response.body) ?? 'null'),
        responseLocation: sealed ? null : (response.location ?? null),
        expiresAt,
      },
      ['clientId', 'keyHash'],
    );
  }

  async deleteExpired(now: Date): Promise<number> {
    return (await this.keys.delete({ expiresAt: LessThanOrEqual(now) })).affected ?? 0;
  }
}
