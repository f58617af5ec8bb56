import { defineConfig, isInteger } from '../../../src/platform/config/index.js';

export interface KennelsConfig {
  /** Kennels 1 to count exist. */
  count: number;
}

/** The module's configuration namespace and the check of its one variable. */
export const kennelsConfig = defineConfig('kennels', { KENNEL_COUNT: isInteger(1, 100) }, (): KennelsConfig => ({
  count: Number(process.env.KENNEL_COUNT || 3),
}));
