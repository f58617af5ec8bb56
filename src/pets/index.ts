/** The animals: routes, storage and the deprecation of getPet. */
export { petsConfig, type PetsConfig } from './pets.config.js';
export { PetsModule } from './pets.module.js';
export { MAX_PAGE_SIZE } from './dto/list-pets-query.dto.js';
export { PetDto } from './dto/pet.dto.js';
