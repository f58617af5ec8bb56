import { applyDecorators, Injectable, SetMetadata, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ApiBearerAuth, ApiExtension, ApiProperty, type ApiPropertyOptions, type OpenAPIObject } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsString } from 'class-validator';
import { ApiErrorResponses, AppParts, ValidationFailedException, type ScopeDefinition } from '../../common/index.js';
import { OpenApiContributor, type OpenApiContribution } from '../../platform/openapi/index.js';
import { InsufficientScopeException } from './auth.exceptions.js';

/** How many scopes a list may name: more than the catalogue will ever hold. */
export const MAX_SCOPES = 32;

export const REQUIRED_SCOPE = 'auth:requiredScope';

/** The scope a key needs for the operation (one a module declares): ApiKeyGuard checks it, and the OpenAPI document shows it, the key and its 403. */
export const RequiredScope = (scope: string) =>
  applyDecorators(
    SetMetadata(REQUIRED_SCOPE, scope),
    ApiBearerAuth('bearer'),
    // An extension: OpenAPI 3.0, this document's version, allows scopes in a security requirement for OAuth2 only.
    ApiExtension('x-required-scopes', [scope]),
    ApiErrorResponses(InsufficientScopeException),
  );

/** A list of scope names, each documented by the `Scope` schema the catalogue contributes. */
export const ScopeListProperty = (options: Partial<ApiPropertyOptions> = {}) =>
  ApiProperty({ type: 'array', items: { $ref: '#/components/schemas/Scope' }, maxItems: MAX_SCOPES, ...options } as ApiPropertyOptions);

/** A list a caller sends: 1 to MAX_SCOPES names; the catalogue (`ScopeCatalogue.resolve`) judges each. */
export const ScopeListRules = () => applyDecorators(IsArray(), ArrayNotEmpty(), ArrayMaxSize(MAX_SCOPES), IsString({ each: true }));

/** What a key may do: the scopes the modules declare in `@ModuleParts`, in module order; at boot, each required scope must be one. */
@OpenApiContributor()
@Injectable()
export class ScopeCatalogue implements OnApplicationBootstrap, OpenApiContribution {
  readonly names: readonly string[] = this.parts.scopes.map(({ name }) => name);
  /** Held by a key made without a list, and by every key from before scopes. */
  readonly defaults: readonly string[] = this.parts.scopes.filter(({ byDefault }) => byDefault).map(({ name }) => name);

  constructor(
    private readonly parts: AppParts,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  /** The scopes a new key gets: the defaults when none are named, else each named one once, in catalogue order. */
  resolve(scopes: readonly string[] | undefined): string[] {
    if (scopes === undefined) return [...this.defaults];
    const unknown = scopes.filter((scope) => !this.names.includes(scope));
    if (unknown.length > 0) throw ValidationFailedException.forField('scopes', `each of scopes must be one of ${this.names.join(', ')}`);
    return this.names.filter((name) => scopes.includes(name));
  }

  /** A stored list as this release shows it: names it does not declare (a newer release's) are left out. */
  known(scopes: readonly string[]): string[] {
    return scopes.filter((scope) => this.names.includes(scope));
  }

  contribute(document: OpenAPIObject): void {
    describeScopes(document, this.parts.scopes);
  }

  onApplicationBootstrap(): void {
    for (const controller of this.discovery.getControllers()) {
      const prototype = Object.getPrototypeOf(controller.instance) as Record<string, () => unknown>;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const scope = this.reflector.getAllAndOverride<string | undefined>(REQUIRED_SCOPE, [prototype[method], controller.metatype!]);
        if (scope !== undefined && !this.names.includes(scope)) {
          throw new Error(`${controller.name}.${method} requires the scope "${scope}", which no module declares in its @ModuleParts`);
        }
      }
    }
  }
}

/** The column's form: space-separated like an OAuth scope string (RFC 6749). */
export const scopeString = {
  to: (scopes: readonly string[]): string => scopes.join(' '),
  from: (stored: string): string[] => stored.split(' ').filter(Boolean),
};

/** The `Scope` schema: every scope the application's modules declare, what each allows, and which a key gets by default. */
export function describeScopes(document: OpenAPIObject, scopes: readonly ScopeDefinition[]): void {
  const lines = scopes.map(({ name, description, byDefault }) => `- \`${name}\`: ${description}${byDefault ? ' (default)' : ''}`);
  document.components!.schemas!.Scope = {
    type: 'string',
    enum: scopes.map(({ name }) => name),
    description: `What a key may do; a key made without a list gets the defaults.\n${lines.join('\n')}`,
  };
}
