import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock, LookupCache } from '../../common/index.js';
import { TransactionHost } from '../../platform/database/index.js';
import { AuditLog, type ChangeContext } from '../audit/index.js';
import { credentialLookups, tokenFormat } from '../auth/index.js';
import { AdminTokensRepository } from './admin-tokens.repository.js';
import type { AdminToken } from './entities/admin-token.entity.js';

/** The API keys' format with a prefix of its own: an admin token is never a well-formed API key, nor the reverse. */
const ADMIN_TOKENS = tokenFormat('pets_admin_');
const CACHE_ENTRIES = 1_000;
export const ADMIN_TOKEN_NAME_MAX_LENGTH = 100;

/** Admin tokens: returned once, never kept; a revoked one is refused by every replica within AUTH_CACHE_TTL_MS, as a key is. */
@Injectable()
export class AdminTokensService {
  /** As a key's: a revoked token is refused within AUTH_CACHE_TTL_MS, one verified lately stays familiar. */
  private readonly lookups = new LookupCache<string, Pick<AdminToken, 'id'>>(this.clock, credentialLookups(this.config, CACHE_ENTRIES));

  constructor(
    private readonly tokens: AdminTokensRepository,
    private readonly clock: Clock,
    private readonly txHost: TransactionHost,
    private readonly audit: AuditLog,
    private readonly config: ConfigService,
  ) {}

  create(name: string, context: ChangeContext) {
    const token = ADMIN_TOKENS.generate();
    return this.txHost.withTransaction(async () => {
      const saved = await this.tokens.create({ name, tokenHash: ADMIN_TOKENS.hash(token), prefix: ADMIN_TOKENS.displayPrefix(token) });
      const adminToken = toAdminTokenView(saved);
      await this.audit.record(context, { action: 'admin_token.created', details: { adminTokenId: adminToken.id } });
      return { token, adminToken };
    });
  }

  async list() {
    return (await this.tokens.list()).map(toAdminTokenView);
  }

  revoke(id: number, context: ChangeContext): Promise<'revoked' | 'already-revoked' | 'not-found'> {
    return this.txHost.withTransaction(async () => {
      const token = await this.tokens.findById(id);
      if (!token) return 'not-found';
      if (token.revokedAt || !(await this.tokens.revoke(id, this.clock.now()))) return 'already-revoked';
      await this.audit.record(context, { action: 'admin_token.revoked', details: { adminTokenId: id } });
      return 'revoked';
    });
  }

  /** The id of the live admin token `token` is; a malformed one is refused without a lookup. */
  async authenticate(token: string): Promise<number | undefined> {
    if (!ADMIN_TOKENS.isWellFormed(token)) return undefined;
    const tokenHash = ADMIN_TOKENS.hash(token);
    const live = await this.lookups.get(tokenHash, () => this.tokens.findUnrevokedByHash(tokenHash));
    return live ? Number(live.id) : undefined;
  }

  /** True when authenticating would ask the database about a token it has not cached: a guesser's lookups. */
  wouldLookUpUnfamiliar(token: string): boolean {
    return ADMIN_TOKENS.isWellFormed(token) && !this.lookups.isFamiliar(ADMIN_TOKENS.hash(token));
  }
}

function toAdminTokenView(token: AdminToken) {
  return {
    // A saved entity carries the generated bigint as PostgreSQL's driver returns it, a string.
    id: Number(token.id),
    name: token.name,
    prefix: token.prefix,
    createdAt: token.createdAt.toISOString(),
    revokedAt: token.revokedAt?.toISOString() ?? null,
  };
}
