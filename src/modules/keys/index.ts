export { KeysModule } from './keys.module.js';
