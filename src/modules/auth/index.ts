export { ApiKeyGuard } from './api-key.guard.js';
export { tokenFormat } from './api-key.format.js';
export { ApiKeysService, KEY_EVENTS, type ApiKeyView, type IssuedKey, type KeyChanged } from './api-keys.service.js';
export { AUTHENTICATION_ERRORS, InsufficientScopeException } from './auth.exceptions.js';
export { credentialLookups } from './auth.config.js';
export { bearerChallenge, bearerToken } from './bearer-token.js';
export { AuthModule } from './auth.module.js';
export { RequestAuthenticator } from './request-authenticator.js';
export { describeScopes, RequiredScope, ScopeCatalogue, ScopeListProperty, ScopeListRules } from './scopes.js';
