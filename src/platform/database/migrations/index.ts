import { InitialSchema1767225600000 } from './1767225600000-initial-schema.js';
import { IdempotencyKeys1795219200000 } from './1795219200000-idempotency-keys.js';
import { CompletedIdempotencyKeys1796083200000 } from './1796083200000-completed-idempotency-keys.js';
import { ApiKeyScopes1796688000000 } from './1796688000000-api-key-scopes.js';
import { ApiKeyNames1797292800000 } from './1797292800000-api-key-names.js';
import { AuditEvents1797897600000 } from './1797897600000-audit-events.js';
import { UsageDays1797984000000 } from './1797984000000-usage-days.js';
import { AdminTokens1798070400000 } from './1798070400000-admin-tokens.js';
import { ApiKeyCreationIndex1798156800000 } from './1798156800000-api-key-creation-index.js';

/** Every migration, in order; listed explicitly so the build needs no file globbing. */
export const MIGRATIONS = [
  InitialSchema1767225600000,
  IdempotencyKeys1795219200000,
  CompletedIdempotencyKeys1796083200000,
  ApiKeyScopes1796688000000,
  ApiKeyNames1797292800000,
  AuditEvents1797897600000,
  UsageDays1797984000000,
  AdminTokens1798070400000,
  ApiKeyCreationIndex1798156800000,
];
