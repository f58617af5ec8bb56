import { TagContribution } from '../../platform/openapi/index.js';

export const USAGE_TAG = 'usage';

const SCHEMAS = ['Usage', 'KeyUsage', 'UsageTotals'];
export const UsageOpenApi = TagContribution(USAGE_TAG, "The requests of the caller's client, per day and key", SCHEMAS);
