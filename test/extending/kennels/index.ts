export { KennelsModule } from './kennels.module.js';
