/** The animals: routes, storage and the deprecation of getPet. */
export { petsConfig, type PetsConfig } from './pets.config.js';
export { PetsModule } from './pets.module.js';
