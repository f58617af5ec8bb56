export { kennelsConfig, type KennelsConfig } from './kennels.config.js';
export { KennelsModule } from './kennels.module.js';
