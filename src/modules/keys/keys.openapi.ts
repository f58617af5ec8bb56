import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { closeSchemas, OpenApiContributor, type OpenApiContribution } from '../../platform/openapi/index.js';

export const KEYS_TAG = 'keys';

/** The tag, and closed schemas: a client may rely on no other property appearing. */
@OpenApiContributor()
@Injectable()
export class KeysOpenApi implements OpenApiContribution {
  contribute(document: OpenAPIObject): void {
    document.tags = [
      ...(document.tags ?? []),
      { name: KEYS_TAG, description: "What a key's holder reads and manages about its own client" },
    ];
    closeSchemas(document, ['RateLimitStatus', 'QuotaWindow', 'ApiKey', 'NewApiKey', 'CreatedApiKey', 'RollApiKey']);
  }
}
