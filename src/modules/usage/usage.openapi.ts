import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { closeSchemas, OpenApiContributor, type OpenApiContribution } from '../../platform/openapi/index.js';

export const USAGE_TAG = 'usage';

/** The tag, and closed schemas: a client may rely on no other property appearing. */
@OpenApiContributor()
@Injectable()
export class UsageOpenApi implements OpenApiContribution {
  contribute(document: OpenAPIObject): void {
    document.tags = [...(document.tags ?? []), { name: USAGE_TAG, description: "The requests of the caller's client, per day and key" }];
    closeSchemas(document, ['Usage', 'KeyUsage', 'UsageTotals']);
  }
}
