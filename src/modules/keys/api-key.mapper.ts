import type { ApiKeyView } from '../auth/index.js';
import type { ApiKeyDto } from './dto/api-key.dto.js';

const MINUTE_MS = 60_000;

/** `lastUsedAt` is recorded at most once a minute, so it is shown to the minute. */
export function toApiKeyResponse({ id, name, prefix, scopes, createdAt, expiresAt, lastUsedAt }: ApiKeyView): ApiKeyDto {
  const lastUsedMinute = lastUsedAt && new Date(Math.floor(Date.parse(lastUsedAt) / MINUTE_MS) * MINUTE_MS).toISOString();
  return { id, name, prefix, scopes: [...scopes], createdAt, expiresAt, lastUsedAt: lastUsedMinute };
}
