export { appConfig, type AppConfig } from './app.config.js';
export { defineConfig, type ConfigNamespace } from './config-registry.js';
export { appConfigModule } from './config.module.js';
export { commaList, isInstant, isInteger, isOneOf, type EnvCheck, type EnvChecks } from './env-check.js';
export { validateEnvironment, validateServerEnvironment } from './env.validation.js';
