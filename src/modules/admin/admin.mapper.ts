import type { ApiKeyPage, ApiKeyView, IssuedKey } from '../auth/index.js';
import type { ClientKeyDto } from './dto/client-key.dto.js';
import type { ClientKeyPageDto } from './dto/client-key-page.dto.js';
import type { CreatedClientKeyDto } from './dto/created-client-key.dto.js';

export function toClientKeyResponse(key: ApiKeyView): ClientKeyDto {
  return { ...key, scopes: [...key.scopes] };
}

export function toClientKeyPageResponse({ keys, nextCursor }: ApiKeyPage): ClientKeyPageDto {
  return { keys: keys.map(toClientKeyResponse), nextCursor };
}

/** The shape of `keys create --json`: the key's fields, its client's plan, the key itself. */
export function toCreatedKeyResponse({ key, apiKey }: IssuedKey, plan: string): CreatedClientKeyDto {
  return { ...toClientKeyResponse(apiKey), plan, key };
}
