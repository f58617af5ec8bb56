import { defineConfig, isInteger } from '../../../src/platform/config/index.js';

/** The module's configuration namespace and the check of its one variable. */
export const kennelsConfig = defineConfig('kennels', { KENNEL_MAX_PLACES: isInteger(1, 100) }, () => ({
  /** The most places a kennel may have. */
  maxPlaces: Number(process.env.KENNEL_MAX_PLACES || 20),
}));

export type KennelsConfig = ReturnType<typeof kennelsConfig>;
