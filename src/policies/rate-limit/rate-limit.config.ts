import { defineConfig, isInteger, isOneOf } from '../../platform/config/index.js';
import { FIXED_PLAN_NAMES } from '../../modules/plans/index.js';

export type RateLimitConfig = ReturnType<typeof rateLimitConfig>;

export const rateLimitConfig = defineConfig(
  'rateLimit',
  {
    RATE_LIMIT_ANONYMOUS_PLAN: isOneOf(...FIXED_PLAN_NAMES),
    RATE_LIMIT_BAN_THRESHOLD: isInteger(1, 1_000_000),
    RATE_LIMIT_BAN_SECONDS: isInteger(1, 86_400),
    RATE_LIMIT_IN_PROCESS_ADDRESSES: isInteger(100, 10_000_000),
  },
  () => ({
    anonymousPlan: process.env.RATE_LIMIT_ANONYMOUS_PLAN || 'free',
    /** Refusals of one key within one UTC minute that suspend it. */
    banThreshold: Number(process.env.RATE_LIMIT_BAN_THRESHOLD || 30),
    banSeconds: Number(process.env.RATE_LIMIT_BAN_SECONDS || 900),
    inProcessAddresses: Number(process.env.RATE_LIMIT_IN_PROCESS_ADDRESSES || 50_000),
  }),
);
