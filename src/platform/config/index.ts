export { appConfig, type AppConfig } from './app.config.js';
export { commaList, defineConfig, isInstant, isInteger, isOneOf, type ConfigNamespace, type EnvCheck } from './define-config.js';
export { appConfigModule, validateEnvironment } from './env.validation.js';
