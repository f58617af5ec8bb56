import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock, LastKnown, TtlCache, type Principal } from '../../common/index.js';
import type { AuthConfig } from './auth.config.js';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key.format.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import type { ApiKey } from './entities/api-key.entity.js';

const LAST_USED_INTERVAL_MS = 60_000;
const CACHE_ENTRIES = 10_000;
/** How long a key verified live may still be served while the database cannot be reached. */
export const VERIFIED_KEY_STALE_MS = 5 * 60_000;

type LiveKey = Pick<ApiKey, 'id' | 'clientId' | 'expiresAt'>;

export interface ApiKeyView {
  id: number;
  clientId: number;
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export type RevokeOutcome = 'revoked' | 'already-revoked' | 'not-found';

/** Issues, lists, revokes and checks API keys. The key itself is returned once and never kept. */
@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  /** Lookups by key hash, including misses, reused for a few seconds to keep the database off the hot path. */
  private readonly lookups: TtlCache<string, LiveKey | null>;
  /**
   * Keys this replica verified live in the last 5 minutes: served from here only while the
   * database cannot be reached (while it is up, a revoked key is refused within the cache time).
   */
  private readonly verified = new LastKnown<string, LiveKey>(VERIFIED_KEY_STALE_MS, CACHE_ENTRIES);
  /** When this replica last recorded each key's use. */
  private readonly lastRecorded = new Map<number, number>();

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly clock: Clock,
    config: ConfigService,
  ) {
    this.lookups = new TtlCache(config.getOrThrow<AuthConfig>('auth').cacheTtlMs, CACHE_ENTRIES);
  }

  async issue(clientId: number, expiresAt: Date | null = null): Promise<{ key: string; apiKey: ApiKeyView }> {
    const key = generateApiKey();
    const saved = await this.keys.create({ clientId, keyHash: hashApiKey(key), prefix: displayPrefix(key), expiresAt });
    return { key, apiKey: this.view(saved) };
  }

  async list(clientId?: number): Promise<ApiKeyView[]> {
    return (await this.keys.list(clientId)).map((key) => this.view(key));
  }

  async revoke(id: number): Promise<RevokeOutcome> {
    const key = await this.keys.findById(id);
    if (!key) return 'not-found';
    if (key.revokedAt) return 'already-revoked';
    await this.keys.revoke(id, this.clock.now());
    return 'revoked';
  }

  /** The principal a bearer token stands for, or undefined when it is not a live key. */
  async authenticate(token: string): Promise<Principal | undefined> {
    if (!isWellFormedApiKey(token)) return undefined;
    const now = this.clock.now();
    const live = await this.lookup(hashApiKey(token), now);
    if (!live || (live.expiresAt && live.expiresAt <= now)) return undefined;
    this.recordUse(live.id, now);
    return { keyId: live.id, clientId: live.clientId };
  }

  /**
   * True when authenticating this token would ask the database about a key this replica has
   * neither in its cache nor verified live lately: the lookups a key guesser would cause.
   */
  wouldLookUpUnfamiliar(token: string): boolean {
    if (!isWellFormedApiKey(token)) return false;
    const keyHash = hashApiKey(token);
    const now = this.clock.now().getTime();
    return this.lookups.get(keyHash, now) === undefined && !this.verified.has(keyHash, now);
  }

  /** A live key by hash; while the database is unavailable, the one verified in the last 5 minutes. */
  private async lookup(keyHash: string, at: Date): Promise<LiveKey | null> {
    const now = at.getTime();
    const cached = this.lookups.get(keyHash, now);
    if (cached !== undefined) return cached;
    return this.verified.read(keyHash, now, async () => {
      const found = await this.keys.findLiveByHash(keyHash, at);
      const live = found && { id: found.id, clientId: found.clientId, expiresAt: found.expiresAt };
      this.lookups.set(keyHash, live, now);
      if (live) this.verified.remember(keyHash, live, now);
      else this.verified.forget(keyHash);
      return live;
    });
  }

  /** Writes `lastUsedAt` at most once a minute per key, off the request's critical path. */
  private recordUse(id: number, now: Date): void {
    const last = this.lastRecorded.get(id);
    if (last !== undefined && now.getTime() - last < LAST_USED_INTERVAL_MS) return;
    this.lastRecorded.set(id, now.getTime());
    this.keys
      .recordUse(id, now, new Date(now.getTime() - LAST_USED_INTERVAL_MS))
      .catch((error: unknown) => this.logger.warn(`Could not record use of key ${id}: ${String(error)}`));
  }

  private view(key: ApiKey): ApiKeyView {
    return {
      id: key.id,
      clientId: key.clientId,
      prefix: key.prefix,
      createdAt: key.createdAt.toISOString(),
      expiresAt: key.expiresAt?.toISOString() ?? null,
      revokedAt: key.revokedAt?.toISOString() ?? null,
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    };
  }
}
