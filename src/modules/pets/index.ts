export { PetsModule } from './pets.module.js';
export { PET_CREATED, type PetCreated } from './pets.service.js';
