export { adminConfig, type AdminConfig } from './admin.config.js';
export { AdminAuthentication } from './admin-authentication.middleware.js';
export { AdminListener } from './admin-listener.js';
export { ADMIN_API_PATH, ADMIN_ROUTES } from './admin-routes.js';
export { AdminModule } from './admin.module.js';
export { buildAdminOpenApiDocument } from './admin.openapi.js';
export { ADMIN_TOKEN_NAME_MAX_LENGTH, AdminTokensService, type AdminTokenView, type IssuedAdminToken } from './admin-tokens.service.js';
export { AdminTokensModule } from './admin-tokens.module.js';
