export { adminConfig, type AdminConfig } from './admin.config.js';
export { createAdminApp } from './admin-app.factory.js';
export { ADMIN_TOKEN_NAME_MAX_LENGTH, AdminTokensService } from './admin-tokens.service.js';
export { AdminTokensModule } from './admin-tokens.module.js';
// What a module's admin controllers (`@ModuleParts({ adminControllers })`) share with the admin API's own.
export { ClientIdParams } from './admin.dto.js';
export { EVERY_ADMIN_OPERATION_ERRORS } from './admin.exceptions.js';
