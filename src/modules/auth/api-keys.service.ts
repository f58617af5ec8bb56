import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { LRUCache } from 'lru-cache';
import { Clock, DEFAULT_PAGE_SIZE, LookupCache, pageStart, toPage, type Authentication, type PageRequest } from '../../common/index.js';
import { credentialLookups } from './auth.config.js';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key.format.js';
import { TransactionHost } from '../../platform/database/index.js';
import { inSpan } from '../../platform/tracing/index.js';
import { AuditLog, type ChangeContext } from '../audit/index.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import type { ApiKey } from './entities/api-key.entity.js';
import { IssuedKeysFilter } from './issued-keys.filter.js';
import { ScopeCatalogue } from './scopes.js';

const LAST_USED_INTERVAL_MS = 60_000;
const CACHE_ENTRIES = 10_000;

type LiveKey = Pick<ApiKey, 'id' | 'clientId' | 'expiresAt' | 'scopes'>;

export type ApiKeyView = ReturnType<typeof toApiKeyView>;

export type IssuedKey = { key: string; apiKey: ApiKeyView };

type Rolled = IssuedKey | 'not-found';

/** Published in the change's transaction, with the key as it is after the change; never the key itself nor its hash. */
export const KEY_EVENTS = { created: 'key.created', rolled: 'key.rolled', revoked: 'key.revoked' } as const;

export interface KeyChanged {
  clientId: number;
  key: ApiKeyView;
  /** The new key of a roll. */
  successorId?: number;
}

/** Without scopes, the catalogue's defaults. */
type KeyOptions = Partial<Pick<ApiKey, 'name' | 'expiresAt' | 'scopes'>>;

/** The key itself is returned once and never kept. */
@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  private readonly lookups = new LookupCache<string, LiveKey>(this.clock, credentialLookups(this.config, CACHE_ENTRIES));
  private readonly recorded = new LRUCache<number, true>({
    max: CACHE_ENTRIES,
    ttl: LAST_USED_INTERVAL_MS,
    ttlResolution: 0,
    perf: { now: () => this.clock.now().getTime() },
  });

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly clock: Clock,
    private readonly txHost: TransactionHost,
    private readonly audit: AuditLog,
    private readonly issued: IssuedKeysFilter,
    private readonly scopes: ScopeCatalogue,
    private readonly events: EventEmitter2,
    private readonly config: ConfigService,
  ) {}

  /** With `maxLive`, issues unless the client already has that many live keys; counted and inserted under a lock on the client. */
  issue(clientId: number, options: KeyOptions, context: ChangeContext): Promise<IssuedKey>;
  issue(clientId: number, options: KeyOptions, context: ChangeContext, maxLive: number): Promise<IssuedKey | 'limit-reached'>;
  issue(clientId: number, options: KeyOptions, context: ChangeContext, maxLive?: number): Promise<IssuedKey | 'limit-reached'> {
    return this.txHost.withTransaction(async () => {
      if (maxLive !== undefined && (await this.keys.countLiveLocked(clientId, this.clock.now())) >= maxLive) return 'limit-reached';
      const issued = await this.insert(clientId, options);
      const { id, name, scopes, expiresAt } = issued.apiKey;
      await this.audit.record(context, { action: 'key.created', clientId, keyId: id, details: { name, scopes, expiresAt } });
      await this.events.emitAsync(KEY_EVENTS.created, { clientId, key: issued.apiKey } satisfies KeyChanged);
      return issued;
    });
  }

  /**
   * A new key of the same name and scopes; the old one expires after `overlapMs`, never later than it would have. The old
   * key does not count towards `maxLive`, so a client at its limit can still rotate; operators roll without a limit.
   */
  roll(id: number, clientId: number, overlapMs: number, context: ChangeContext): Promise<Rolled>;
  roll(id: number, clientId: number, overlapMs: number, context: ChangeContext, maxLive: number): Promise<Rolled | 'limit-reached'>;
  roll(id: number, clientId: number, overlapMs: number, context: ChangeContext, maxLive = Infinity): Promise<Rolled | 'limit-reached'> {
    return this.txHost.withTransaction(async () => {
      const now = this.clock.now();
      const old = await this.keys.findLiveOfClient(id, clientId, now);
      if (!old) return 'not-found';
      if ((await this.keys.countLiveLocked(clientId, now)) - 1 >= maxLive) return 'limit-reached';
      // The successor first: should the expiry fail after it, the client holds two keys, never none.
      const successor = await this.insert(clientId, { name: old.name, scopes: old.scopes });
      const expiresAt = new Date(now.getTime() + overlapMs);
      await this.keys.expireBy(id, expiresAt);
      const details = { successorKeyId: successor.apiKey.id, overlapSeconds: overlapMs / 1000 };
      await this.audit.record(context, { action: 'key.rolled', clientId, keyId: id, details });
      const rolled = this.view({ ...old, expiresAt: old.expiresAt && old.expiresAt < expiresAt ? old.expiresAt : expiresAt });
      await this.events.emitAsync(KEY_EVENTS.rolled, { clientId, key: rolled, successorId: successor.apiKey.id } satisfies KeyChanged);
      return successor;
    });
  }

  async list(clientId?: number): Promise<ApiKeyView[]> {
    return (await this.keys.findPage(clientId)).map((key) => this.view(key));
  }

  /** Keys in id order, revoked and expired ones too, of one client or of all, a page at a time (`nextCursor` null on the last). */
  async listPage(clientId: number | undefined, { cursor, limit = DEFAULT_PAGE_SIZE }: PageRequest = {}) {
    const listing = { clientId: clientId ?? null };
    const rows = await this.keys.findPage(clientId, pageStart(cursor, listing), limit + 1);
    const { items, nextCursor } = toPage(rows, limit, listing);
    return { keys: items.map((key) => this.view(key)), nextCursor };
  }

  async get(id: number): Promise<ApiKeyView | undefined> {
    const key = await this.keys.findById(id);
    return key ? this.view(key) : undefined;
  }

  async listLive(clientId: number): Promise<ApiKeyView[]> {
    return (await this.keys.listLive(clientId, this.clock.now())).map((key) => this.view(key));
  }

  /** Revokes a live key of the client; another client's key is `not-found` like one that does not exist. */
  revokeOfClient(id: number, clientId: number, context: ChangeContext): Promise<'revoked' | 'not-found'> {
    return this.txHost.withTransaction(async () => {
      const now = this.clock.now();
      const key = await this.keys.findLiveOfClient(id, clientId, now);
      if (!key) return 'not-found';
      // A revocation that another one beat to it changed nothing, and records nothing.
      if (await this.keys.revoke(id, now)) await this.revoked(key, now, context);
      return 'revoked';
    });
  }

  /** Revokes a key, expired ones too; with `clientId`, only a key of that client (another's is `not-found`). */
  revoke(id: number, context: ChangeContext, clientId?: number): Promise<'revoked' | 'already-revoked' | 'not-found'> {
    return this.txHost.withTransaction(async () => {
      const key = await this.keys.findById(id);
      if (!key || (clientId !== undefined && Number(key.clientId) !== clientId)) return 'not-found';
      const now = this.clock.now();
      if (key.revokedAt || !(await this.keys.revoke(id, now))) return 'already-revoked';
      await this.revoked(key, now, context);
      return 'revoked';
    });
  }

  /** Expiry is compared with the clock on every request, so a cached lookup never extends a key's life. */
  async authenticate(token: string): Promise<Exclude<Authentication, { kind: 'missing' }>> {
    if (!isWellFormedApiKey(token)) return { kind: 'invalid', expired: false };
    const now = this.clock.now();
    const keyHash = hashApiKey(token);
    const live = await this.lookups.get(keyHash, () =>
      // Only a lookup that reaches the database is a span; the hash is never an attribute.
      inSpan('api_key.lookup', async (span) => {
        const found = await this.keys.findUnrevokedByHash(keyHash);
        span.setAttribute('pets.api_key.found', found !== null);
        return found;
      }),
    );
    if (!live) return { kind: 'invalid', expired: false };
    if (live.expiresAt && live.expiresAt <= now) return { kind: 'invalid', expired: true };
    this.recordUse(live.id, now);
    return { kind: 'valid', principal: { keyId: live.id, clientId: live.clientId, scopes: live.scopes } };
  }

  /** True for a well-formed key this service certainly never issued: authenticating it would only ask the database for a no. */
  async isCertainlyForeign(token: string): Promise<boolean> {
    if (!isWellFormedApiKey(token)) return false;
    const keyHash = hashApiKey(token);
    return !this.lookups.isFamiliar(keyHash) && !(await this.issued.mightHold(keyHash));
  }

  private async revoked(key: ApiKey, at: Date, context: ChangeContext): Promise<void> {
    const clientId = Number(key.clientId);
    await this.audit.record(context, { action: 'key.revoked', clientId, keyId: Number(key.id) });
    await this.events.emitAsync(KEY_EVENTS.revoked, { clientId, key: this.view({ ...key, revokedAt: at }) } satisfies KeyChanged);
  }

  private async insert(clientId: number, { name = '', expiresAt = null, scopes }: KeyOptions): Promise<IssuedKey> {
    const key = generateApiKey();
    const keyHash = hashApiKey(key);
    this.issued.add(keyHash);
    const row = { clientId, name, keyHash, prefix: displayPrefix(key), expiresAt, scopes: this.scopes.resolve(scopes) };
    return { key, apiKey: this.view(await this.keys.create(row)) };
  }

  private view(key: ApiKey): ApiKeyView {
    return toApiKeyView({ ...key, scopes: this.scopes.known(key.scopes) });
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
    // A saved entity carries the generated bigint as PostgreSQL's driver returns it, a string.
    id: Number(key.id),
    clientId: Number(key.clientId),
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}
