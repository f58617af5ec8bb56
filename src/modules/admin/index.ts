export { adminConfig, type AdminConfig } from './admin.config.js';
export { createAdminApp } from './admin-app.factory.js';
export { ADMIN_TOKEN_NAME_MAX_LENGTH, AdminTokensService } from './admin-tokens.service.js';
export { AdminTokensModule } from './admin-tokens.module.js';
