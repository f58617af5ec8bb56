import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppParts, type ScopeDefinition } from '../../common/index.js';
import { OpenApiContributor, type OpenApiContribution } from '../../platform/openapi/index.js';

/** The `Scope` schema: every scope the application's modules declare, what each allows, and which a key gets by default. */
export function describeScopes(document: OpenAPIObject, scopes: readonly ScopeDefinition[]): void {
  const lines = scopes.map(({ name, description, byDefault }) => `- \`${name}\`: ${description}${byDefault ? ' (default)' : ''}`);
  document.components!.schemas!.Scope = {
    type: 'string',
    enum: scopes.map(({ name }) => name),
    description: `What a key may do; a key made without a list gets the defaults.\n${lines.join('\n')}`,
  };
}

@OpenApiContributor()
@Injectable()
export class ScopesOpenApi implements OpenApiContribution {
  constructor(private readonly parts: AppParts) {}

  contribute(document: OpenAPIObject): void {
    describeScopes(document, this.parts.scopes);
  }
}
