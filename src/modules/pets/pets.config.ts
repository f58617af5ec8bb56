import { defineConfig, isInstant } from '../../platform/config/index.js';

export type PetsConfig = ReturnType<typeof petsConfig>;

export const petsConfig = defineConfig('pets', { GET_PET_DEPRECATED_AT: isInstant, GET_PET_SUNSET: isInstant }, () => ({
  getPetDeprecatedAt: new Date(process.env.GET_PET_DEPRECATED_AT || '2026-01-01T00:00:00Z'),
  /** From then on `GET /pets/{petId}` answers 410. */
  getPetSunset: new Date(process.env.GET_PET_SUNSET || '2030-12-05T00:00:00Z'),
}));
