import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type Repository } from 'typeorm';
import { TransactionHost } from '../../platform/database/index.js';
import { AdminToken } from './entities/admin-token.entity.js';

@Injectable()
export class AdminTokensRepository {
  constructor(
    @InjectRepository(AdminToken) private readonly tokens: Repository<AdminToken>,
    private readonly txHost: TransactionHost,
  ) {}

  /** Changes write through `txHost.tx`, so their audit event shares their transaction. */
  create(token: Pick<AdminToken, 'name' | 'tokenHash' | 'prefix'>): Promise<AdminToken> {
    const tokens = this.txHost.tx.getRepository(AdminToken);
    return tokens.save(tokens.create({ ...token, revokedAt: null }));
  }

  /** Unknown and revoked tokens cost the same statement. */
  findUnrevokedByHash(tokenHash: string): Promise<Pick<AdminToken, 'id'> | null> {
    return this.tokens.findOne({ select: { id: true }, where: { tokenHash, revokedAt: IsNull() } });
  }

  findById(id: number): Promise<AdminToken | null> {
    return this.tokens.findOneBy({ id });
  }

  list(): Promise<AdminToken[]> {
    return this.tokens.find({ order: { id: 'ASC' } });
  }

  /** Whether this call revoked it: concurrent revocations change the row once. */
  async revoke(id: number, at: Date): Promise<boolean> {
    const { affected } = await this.txHost.tx.getRepository(AdminToken).update({ id, revokedAt: IsNull() }, { revokedAt: at });
    return affected === 1;
  }
}
