export { petsConfig, type PetsConfig } from './pets.config.js';
export { PetsModule } from './pets.module.js';
