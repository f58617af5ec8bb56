import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LRUCache } from 'lru-cache';
import { Clock, LookupCache, type Principal } from '../../common/index.js';
import type { AuthConfig } from './auth.config.js';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key.format.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import type { ApiKey } from './entities/api-key.entity.js';
import { DEFAULT_SCOPES, normalizeScopes, type Scope } from './scopes.js';

const LAST_USED_INTERVAL_MS = 60_000;
const CACHE_ENTRIES = 10_000;
/** How long a key verified live may still be served while the database cannot be reached. */
export const VERIFIED_KEY_STALE_MS = 5 * 60_000;

type LiveKey = Pick<ApiKey, 'id' | 'clientId' | 'expiresAt' | 'scopes'>;

export type ApiKeyView = ReturnType<typeof toApiKeyView>;

export type RevokeOutcome = 'revoked' | 'already-revoked' | 'not-found';

/** The key itself is returned once and never kept. */
@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  /** Misses too, for AUTH_CACHE_TTL_MS (a revoked key is refused within it). */
  private readonly lookups: LookupCache<string, LiveKey>;
  private readonly recorded: LRUCache<number, true>;

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly clock: Clock,
    config: ConfigService,
  ) {
    const freshMs = config.getOrThrow<AuthConfig>('auth').cacheTtlMs;
    this.lookups = new LookupCache(clock, { max: CACHE_ENTRIES, freshMs, staleMs: VERIFIED_KEY_STALE_MS });
    this.recorded = new LRUCache({
      max: CACHE_ENTRIES,
      ttl: LAST_USED_INTERVAL_MS,
      ttlResolution: 0,
      perf: { now: () => clock.now().getTime() },
    });
  }

  async issue(
    clientId: number,
    { expiresAt = null, scopes = DEFAULT_SCOPES }: { expiresAt?: Date | null; scopes?: readonly Scope[] } = {},
  ): Promise<{ key: string; apiKey: ApiKeyView }> {
    const key = generateApiKey();
    const saved = await this.keys.create({
      clientId,
      keyHash: hashApiKey(key),
      prefix: displayPrefix(key),
      expiresAt,
      scopes: normalizeScopes(scopes),
    });
    return { key, apiKey: toApiKeyView(saved) };
  }

  async list(clientId?: number): Promise<ApiKeyView[]> {
    return (await this.keys.list(clientId)).map(toApiKeyView);
  }

  async revoke(id: number): Promise<RevokeOutcome> {
    const key = await this.keys.findById(id);
    if (!key) return 'not-found';
    if (key.revokedAt) return 'already-revoked';
    await this.keys.revoke(id, this.clock.now());
    return 'revoked';
  }

  async authenticate(token: string): Promise<Principal | undefined> {
    if (!isWellFormedApiKey(token)) return undefined;
    const now = this.clock.now();
    const keyHash = hashApiKey(token);
    const live = await this.lookups.get(keyHash, () => this.keys.findLiveByHash(keyHash, now));
    if (!live || (live.expiresAt && live.expiresAt <= now)) return undefined;
    this.recordUse(live.id, now);
    return { keyId: live.id, clientId: live.clientId, scopes: live.scopes };
  }

  /** True when authenticating would ask the database about a key neither cached nor verified lately: a guesser's lookups. */
  wouldLookUpUnfamiliar(token: string): boolean {
    return isWellFormedApiKey(token) && !this.lookups.isFamiliar(hashApiKey(token));
  }

  /** Writes `lastUsedAt` at most once a minute per key, off the request's critical path. */
  private recordUse(id: number, now: Date): void {
    if (this.recorded.has(id)) return;
    this.recorded.set(id, true);
    this.keys
      .recordUse(id, now, new Date(now.getTime() - LAST_USED_INTERVAL_MS))
      .catch((error: unknown) => this.logger.warn(`Could not record use of key ${id}: ${String(error)}`));
  }
}

function toApiKeyView(key: ApiKey) {
  return {
    id: key.id,
    clientId: key.clientId,
    prefix: key.prefix,
    scopes: key.scopes,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}
