import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type Repository } from 'typeorm';
import { AdminToken } from './entities/admin-token.entity.js';

@Injectable()
export class AdminTokensRepository {
  constructor(@InjectRepository(AdminToken) private readonly tokens: Repository<AdminToken>) {}

  create(token: Pick<AdminToken, 'name' | 'tokenHash' | 'prefix'>): Promise<AdminToken> {
    return this.tokens.save(this.tokens.create({ ...token, revokedAt: null }));
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

  async revoke(id: number, at: Date): Promise<void> {
    await this.tokens.update({ id, revokedAt: IsNull() }, { revokedAt: at });
  }
}
