import { defineConfig, isInstant } from '../../platform/config/index.js';

export interface PetsConfig {
  /** When `GET /pets/{petId}` was deprecated (RFC 9745 `Deprecation`). */
  getPetDeprecatedAt: Date;
  /** When `GET /pets/{petId}` is removed (RFC 8594 `Sunset`); from then on it answers 410. */
  getPetSunset: Date;
}

/** The sunset of `GET /pets/{petId}` unless GET_PET_SUNSET moves it. */
export const DEFAULT_GET_PET_SUNSET = '2030-12-05T00:00:00Z';

export const petsConfig = defineConfig('pets', { GET_PET_DEPRECATED_AT: isInstant, GET_PET_SUNSET: isInstant }, (): PetsConfig => ({
  getPetDeprecatedAt: new Date(process.env.GET_PET_DEPRECATED_AT || '2026-01-01T00:00:00Z'),
  getPetSunset: new Date(process.env.GET_PET_SUNSET || DEFAULT_GET_PET_SUNSET),
}));
