/** The replica's cache of reads, valid for one data generation, and that generation. */
export { CachedRead, CachedReadInterceptor } from './cached-read.interceptor.js';
export { DataGeneration } from './data-generation.js';
export { readCacheConfig } from './read-cache.config.js';
export { ReadCache } from './read-cache.js';
export { ReadCacheModule } from './read-cache.module.js';
