export { ConsoleModule } from './console.module.js';
