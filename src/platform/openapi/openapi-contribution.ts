import { DiscoveryService } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * What a module adds to the OpenAPI document beyond its decorators (named or closed schemas, headers,
 * values from configuration), on a provider marked `@OpenApiContributor()`.
 */
export interface OpenApiContribution {
  contribute(document: OpenAPIObject): void;
}

export const OpenApiContributor = DiscoveryService.createDecorator<void>();

type SchemaObject = { additionalProperties?: boolean };

/** Closes object schemas clients rely on, as the reference contract does (`additionalProperties: false`). */
export function closeSchemas(document: OpenAPIObject, names: string[]): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
  for (const name of names) if (schemas[name]) schemas[name].additionalProperties = false;
}
