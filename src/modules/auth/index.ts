export { ApiKeyGuard } from './api-key.guard.js';
export { ApiKeysService } from './api-keys.service.js';
export { AUTHENTICATION_ERRORS, InvalidApiKeyException, MissingApiKeyException } from './auth.exceptions.js';
export { authConfig, type AuthConfig } from './auth.config.js';
export { AuthModule } from './auth.module.js';
export { RequestAuthenticator } from './request-authenticator.js';
