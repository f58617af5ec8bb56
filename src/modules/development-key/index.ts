/** Outside production, a key for a newcomer on the first start of an empty database. */
export { DevelopmentKeyModule } from './development-key.module.js';
export { DevelopmentKeyService } from './development-key.service.js';
