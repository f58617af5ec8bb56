export { ApiKeyGuard } from './api-key.guard.js';
export { tokenFormat } from './api-key.format.js';
export { ApiKeysService, VERIFIED_KEY_STALE_MS, type ApiKeyPage, type ApiKeyView, type IssuedKey } from './api-keys.service.js';
export {
  AUTHENTICATION_ERRORS,
  ExpiredApiKeyException,
  InsufficientScopeException,
  InvalidApiKeyException,
  MissingApiKeyException,
} from './auth.exceptions.js';
export { authConfig, type AuthConfig } from './auth.config.js';
export { bearerToken } from './bearer-token.js';
export { AuthModule } from './auth.module.js';
export { RequestAuthenticator } from './request-authenticator.js';
export { describeScopes, RequiredScope, ScopeCatalogue, ScopeListProperty, ScopeListRules } from './scopes.js';
