export { RedisCircuit } from './redis-circuit.js';
export type { RedisConfig } from './redis.config.js';
export { REDIS_CLIENT, RedisModule, type RedisClient } from './redis.module.js';
