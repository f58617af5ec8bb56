export { DataGeneration } from './data-generation.js';
export { CachedRead, InvalidatesCachedReads, ReadCacheInterceptor } from './read-cache.interceptor.js';
export { ReadCacheModule } from './read-cache.module.js';
