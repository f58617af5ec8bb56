export { NEW_KEY_SCHEMA } from './dto/api-key.dto.js';
export {
  DEFAULT_OVERLAP_SECONDS,
  KEY_NAME_SCHEMA,
  KeyNameRules,
  MAX_OVERLAP_SECONDS,
  NewApiKeyDto,
  RollApiKeyDto,
} from './dto/key-requests.dto.js';
export { KeysModule } from './keys.module.js';
