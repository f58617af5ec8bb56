import { Injectable } from '@nestjs/common';
import { Clock, type Principal } from '../../common/index.js';
import type { ChangeContext } from '../audit/index.js';
import { ApiKeysService, InsufficientScopeException, ScopeCatalogue, type ApiKeyView, type IssuedKey } from '../auth/index.js';
import type { ApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto.js';
import type { NewApiKeyDto } from './dto/key-requests.dto.js';
import { KeyLimitReachedException, KeyNotFoundException } from './keys.exceptions.js';

/** Live keys a client may hold (docs/contract/decisions.md). */
export const MAX_LIVE_KEYS = 20;
const MINUTE_MS = 60_000;

/** The rules of a client managing its own keys; the keys themselves are the auth module's. */
@Injectable()
export class KeysService {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly scopeCatalogue: ScopeCatalogue,
    private readonly clock: Clock,
  ) {}

  async list(caller: Principal): Promise<ApiKeyDto[]> {
    return (await this.keys.listLive(caller.clientId)).map(toApiKeyResponse);
  }

  /** `change` is the calling key's (`@Change()`), as are the others'. */
  async create(
    caller: Principal,
    { name, scopes: named, expiresInSeconds }: NewApiKeyDto,
    change: ChangeContext,
  ): Promise<CreatedApiKeyDto> {
    const scopes = this.scopeCatalogue.resolve(named);
    // A key never hands out more than it holds.
    const missing = scopes.find((scope) => !caller.scopes.includes(scope));
    if (missing) throw new InsufficientScopeException(missing);
    const expiresAt = expiresInSeconds === undefined ? null : new Date(this.clock.now().getTime() + expiresInSeconds * 1000);
    const issued = await this.keys.issue(caller.clientId, { name, scopes, expiresAt }, change, MAX_LIVE_KEYS);
    if (issued === 'limit-reached') throw new KeyLimitReachedException(MAX_LIVE_KEYS);
    return toCreatedResponse(issued);
  }

  async roll(caller: Principal, id: number, overlapSeconds: number, change: ChangeContext): Promise<CreatedApiKeyDto> {
    const rolled = await this.keys.roll(id, caller.clientId, overlapSeconds * 1000, change, MAX_LIVE_KEYS);
    if (rolled === 'not-found') throw new KeyNotFoundException();
    if (rolled === 'limit-reached') throw new KeyLimitReachedException(MAX_LIVE_KEYS);
    return toCreatedResponse(rolled);
  }

  async revoke(caller: Principal, id: number, change: ChangeContext): Promise<void> {
    if ((await this.keys.revokeOfClient(id, caller.clientId, change)) === 'not-found') throw new KeyNotFoundException();
  }
}

/** `lastUsedAt` is recorded at most once a minute, so it is shown to the minute. */
function toApiKeyResponse({ id, name, prefix, scopes, createdAt, expiresAt, lastUsedAt }: ApiKeyView): ApiKeyDto {
  const lastUsedMinute = lastUsedAt && new Date(Math.floor(Date.parse(lastUsedAt) / MINUTE_MS) * MINUTE_MS).toISOString();
  return { id, name, prefix, scopes: [...scopes], createdAt, expiresAt, lastUsedAt: lastUsedMinute };
}

function toCreatedResponse({ key, apiKey }: IssuedKey): CreatedApiKeyDto {
  return { ...toApiKeyResponse(apiKey), key };
}
