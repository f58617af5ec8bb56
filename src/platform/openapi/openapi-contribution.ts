import { DiscoveryService } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * What a module adds to the OpenAPI document beyond its decorators (named schemas, closed
 * schemas, headers on every response, values taken from configuration). A provider of the module
 * implements it and is marked `@OpenApiContributor()`; the document builder applies every one.
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
