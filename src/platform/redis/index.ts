export { RedisCircuit } from './redis-circuit.js';
export type { RedisClient } from './redis-client.js';
export { redisConfig, type RedisConfig } from './redis.config.js';
export { REDIS_CLIENT, RedisModule } from './redis.module.js';
