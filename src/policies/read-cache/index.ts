export { DataGeneration } from './data-generation.js';
export { CachedRead, InvalidatesCachedReads } from './read-cache.decorators.js';
export { readCacheConfig } from './read-cache.config.js';
export { ReadCacheInterceptor } from './read-cache.interceptor.js';
export { ReadCacheModule } from './read-cache.module.js';
