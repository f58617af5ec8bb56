export { NEW_KEY_SCHEMA } from './dto/created-api-key.dto.js';
export { KEY_NAME_SCHEMA, KeyNameRules } from './dto/key-name.js';
export { NewApiKeyDto } from './dto/new-api-key.dto.js';
export { DEFAULT_OVERLAP_SECONDS, MAX_OVERLAP_SECONDS, RollApiKeyDto } from './dto/roll-api-key.dto.js';
export { KeysModule } from './keys.module.js';
