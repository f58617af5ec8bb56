import { TagContribution } from '../../platform/openapi/index.js';

export const KEYS_TAG = 'keys';

const SCHEMAS = ['RateLimitStatus', 'QuotaWindow', 'ApiKey', 'NewApiKey', 'CreatedApiKey', 'RollApiKey'];
export const KeysOpenApi = TagContribution(KEYS_TAG, "What a key's holder reads and manages about its own client", SCHEMAS);
