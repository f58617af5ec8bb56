import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThanOrEqual, type DataSource, type EntityManager, type Repository } from 'typeorm';
import { IdempotencyKey } from './entities/idempotency-key.entity.js';
import type { IdempotencyScope } from './idempotency.store.js';

export interface PendingMark {
  fingerprint: string;
  token: string;
  expiresAt: Date;
}

export interface CompletedResponse {
  status: number;
  body: string;
  location: string | null;
  expiresAt: Date;
}

function pendingColumns({ fingerprint, token, expiresAt }: PendingMark) {
  return {
    fingerprint,
    token,
    expiresAt,
    state: 'pending',
    responseStatus: null,
    responseBody: null,
    responseLocation: null,
  } as const;
}

@Injectable()
export class IdempotencyKeysRepository {
  constructor(@InjectRepository(IdempotencyKey) private readonly keys: Repository<IdempotencyKey>) {}

  get dataSource(): DataSource {
    return this.keys.manager.dataSource;
  }

  /** The same operations inside the transaction of `manager`. */
  within(manager: EntityManager): IdempotencyKeysRepository {
    return new IdempotencyKeysRepository(manager.withRepository(this.keys));
  }

  find({ clientId, keyHash }: IdempotencyScope): Promise<IdempotencyKey | null> {
    return this.keys.findOneBy({ clientId, keyHash });
  }

  /** Inserts the pending mark unless the client already has a row for the key (the unique constraint decides). */
  async insertIfAbsent({ clientId, keyHash }: IdempotencyScope, mark: PendingMark): Promise<void> {
    await this.keys
      .createQueryBuilder()
      .insert()
      .into(IdempotencyKey)
      .values({ clientId, keyHash, ...pendingColumns(mark) })
      .orIgnore()
      // Nothing to read back: an ignored insert returns no id, which TypeORM would report as an error.
      .updateEntity(false)
      .execute();
  }

  /** Overwrites the row written by reservation `previousToken` (expired) with a new pending mark. */
  async replace({ clientId, keyHash }: IdempotencyScope, previousToken: string, mark: PendingMark): Promise<void> {
    await this.keys.update({ clientId, keyHash, token: previousToken }, pendingColumns(mark));
  }

  /** Stores the response in place of the pending mark of reservation `token`, if it is still that one. */
  async complete({ clientId, keyHash }: IdempotencyScope, token: string, response: CompletedResponse): Promise<void> {
    await this.keys.update(
      { clientId, keyHash, token, state: 'pending' },
      {
        state: 'completed',
        responseStatus: response.status,
        responseBody: response.body,
        responseLocation: response.location,
        expiresAt: response.expiresAt,
      },
    );
  }

  /** Deletes the pending mark of reservation `token`, if it is still that one. */
  async release({ clientId, keyHash }: IdempotencyScope, token: string): Promise<void> {
    await this.keys.delete({ clientId, keyHash, token, state: 'pending' });
  }

  /** Deletes the keys that expired at or before `now`; returns how many. */
  async deleteExpired(now: Date): Promise<number> {
    return (await this.keys.delete({ expiresAt: LessThanOrEqual(now) })).affected ?? 0;
  }
}
