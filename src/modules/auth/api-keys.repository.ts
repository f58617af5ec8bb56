import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, LessThan, MoreThan, Or, type Repository } from 'typeorm';
import { TransactionHost } from '../../platform/database/index.js';
import { ApiKey } from './entities/api-key.entity.js';

/** Neither revoked nor expired at `now`. */
const live = (now: Date) => ({ revokedAt: IsNull(), expiresAt: Or(IsNull(), MoreThan(now)) });

/** Writes join the request's transaction through `txHost.tx`, so an idempotent creation records in the same one. */
@Injectable()
export class ApiKeysRepository {
  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    private readonly txHost: TransactionHost,
  ) {}

  create(key: Pick<ApiKey, 'clientId' | 'name' | 'keyHash' | 'prefix' | 'expiresAt' | 'scopes'>): Promise<ApiKey> {
    const keys = this.txHost.tx.getRepository(ApiKey);
    return keys.save(keys.create({ ...key, revokedAt: null, lastUsedAt: null }));
  }

  /** Unknown and revoked keys cost the same statement, so no timing tells them apart; expired keys are the caller's to judge. */
  findUnrevokedByHash(keyHash: string): Promise<Pick<ApiKey, 'id' | 'clientId' | 'expiresAt' | 'scopes'> | null> {
    return this.keys.findOne({
      select: { id: true, clientId: true, expiresAt: true, scopes: true },
      where: { keyHash, revokedAt: IsNull() },
    });
  }

  /** The first `length` hex digits of every unrevoked key's hash, or of those created after `createdAfter`. */
  async findUnrevokedHashPrefixes(length: number, createdAfter?: Date): Promise<string[]> {
    const query = this.keys
      .createQueryBuilder('key')
      .select('substr(key.keyHash, 1, :length)', 'prefix')
      .where('key.revokedAt IS NULL')
      .setParameter('length', length);
    if (createdAfter) query.andWhere('key.createdAt > :createdAfter', { createdAfter });
    return (await query.getRawMany<{ prefix: string }>()).map((row) => row.prefix);
  }

  findById(id: number): Promise<ApiKey | null> {
    return this.txHost.tx.getRepository(ApiKey).findOneBy({ id });
  }

  /** One statement whether the key is another client's or does not exist, so neither answer nor timing tells which. */
  findLiveOfClient(id: number, clientId: number, now: Date): Promise<ApiKey | null> {
    return this.txHost.tx.getRepository(ApiKey).findOneBy({ id, clientId, ...live(now) });
  }

  /** Up to `take` keys (all without) after the id `after` (from the first without), in id order, of one client or of all. */
  findPage(clientId: number | undefined, after?: number, take?: number): Promise<ApiKey[]> {
    const where = { ...(after !== undefined && { id: MoreThan(after) }), ...(clientId !== undefined && { clientId }) };
    return this.keys.find({ where, order: { id: 'ASC' }, take });
  }

  listLive(clientId: number, now: Date): Promise<ApiKey[]> {
    return this.keys.find({ where: { clientId, ...live(now) }, order: { id: 'ASC' } });
  }

  /** Call within a transaction: locks the client's row until it ends, so concurrent creations count one after another. */
  async countLiveLocked(clientId: number, now: Date): Promise<number> {
    await this.txHost.tx.query('SELECT id FROM clients WHERE id = $1 FOR UPDATE', [clientId]);
    return this.txHost.tx.getRepository(ApiKey).countBy({ clientId, ...live(now) });
  }

  /** False when the key was already revoked. */
  async revoke(id: number, at: Date): Promise<boolean> {
    return (await this.txHost.tx.getRepository(ApiKey).update({ id, revokedAt: IsNull() }, { revokedAt: at })).affected === 1;
  }

  /** Brings the expiry forward to `at`, never later than it already is. */
  async expireBy(id: number, at: Date): Promise<void> {
    await this.txHost.tx.getRepository(ApiKey).update({ id, expiresAt: Or(IsNull(), MoreThan(at)) }, { expiresAt: at });
  }

  /** Skips the write when another replica recorded use since `staleBefore`. */
  async recordUse(id: number, at: Date, staleBefore: Date): Promise<void> {
    await this.keys.update({ id, lastUsedAt: Or(IsNull(), LessThan(staleBefore)) }, { lastUsedAt: at });
  }
}
