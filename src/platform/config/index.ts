export { appConfig, type AppConfig } from './app.config.js';
export { defineConfig, type ConfigNamespace } from './define-config.js';
export { appConfigModule } from './config.module.js';
export { commaList, isInstant, isInteger, isOneOf, type EnvCheck, type EnvChecks } from './env-check.js';
export { validateEnvironment } from './env.validation.js';
