export { PetsModule } from './pets.module.js';
