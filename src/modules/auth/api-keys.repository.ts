import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, LessThan, MoreThan, Or, type Repository } from 'typeorm';
import { ApiKey } from './entities/api-key.entity.js';

@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>) {}

  create(key: Pick<ApiKey, 'clientId' | 'keyHash' | 'prefix' | 'expiresAt' | 'scopes'>): Promise<ApiKey> {
    return this.keys.save(this.keys.create({ ...key, revokedAt: null, lastUsedAt: null }));
  }

  /**
   * The database filters, so unknown, revoked and expired keys cost the same statement: no timing tells them apart.
   * The scopes come in the same statement, so checking them costs no query of its own.
   */
  findLiveByHash(keyHash: string, now: Date): Promise<Pick<ApiKey, 'id' | 'clientId' | 'expiresAt' | 'scopes'> | null> {
    return this.keys.findOne({
      select: { id: true, clientId: true, expiresAt: true, scopes: true },
      where: { keyHash, revokedAt: IsNull(), expiresAt: Or(IsNull(), MoreThan(now)) },
    });
  }

  findById(id: number): Promise<ApiKey | null> {
    return this.keys.findOneBy({ id });
  }

  list(clientId?: number): Promise<ApiKey[]> {
    return this.keys.find({ where: clientId === undefined ? {} : { clientId }, order: { id: 'ASC' } });
  }

  async revoke(id: number, at: Date): Promise<void> {
    await this.keys.update({ id, revokedAt: IsNull() }, { revokedAt: at });
  }

  /** Skips the write when another replica recorded use since `staleBefore`. */
  async recordUse(id: number, at: Date, staleBefore: Date): Promise<void> {
    await this.keys.update({ id, lastUsedAt: Or(IsNull(), LessThan(staleBefore)) }, { lastUsedAt: at });
  }
}
